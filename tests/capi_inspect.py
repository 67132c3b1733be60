#!/usr/bin/env python3
"""occcalc_inspect_json against `occcalc inspect --json`: for every build
output among the fixtures (nvcc 13 cubins, fat binaries, executables, shared
and static libraries, relocatable objects, AMD code objects and offload
bundles, compiler logs), the bytes given to the C ABI with the file's name
must give the very document inspect prints for that file, and a file inspect
refuses the same message as an error document. Through Python's ctypes.
Exits 77 (skipped) for a library built with sanitizers.

    capi_inspect.py <occcalc CLI> <libocccalc.so> <source dir> [<the library's C++ flags>]
"""
import ctypes
import json
import os
import subprocess
import sys

cli, library, source = sys.argv[1:4]
if len(sys.argv) > 4 and "-fsanitize" in sys.argv[4]:
    print("a sanitized library: skipped")
    sys.exit(77)
lib = ctypes.CDLL(library)
lib.occcalc_inspect_json.restype = ctypes.c_void_p
lib.occcalc_inspect_json.argtypes = [ctypes.c_char_p, ctypes.c_size_t, ctypes.c_char_p]
lib.occcalc_free.argtypes = [ctypes.c_void_p]


def inspect_json(data, name):
    answer = lib.occcalc_inspect_json(data, len(data), name.encode() if name is not None else None)
    text = ctypes.string_at(answer).decode()
    lib.occcalc_free(answer)
    return text


# Each document validated against schema/inspect.schema.json, the error object included.
try:
    import jsonschema
    schemas = [json.load(open(os.path.join(source, "schema", n))) for n in os.listdir(os.path.join(source, "schema"))]
    inspect_schema = next(s for s in schemas if s["$id"].endswith("/inspect.schema.json"))
    validator = jsonschema.Draft202012Validator(inspect_schema, resolver=jsonschema.RefResolver(
        base_uri=inspect_schema["$id"], referrer=inspect_schema, store={s["$id"]: s for s in schemas}))
except ImportError:
    validator = None
invalid = []
os.chdir(os.path.join(source, "tests", "fixtures"))
files = sorted(os.path.join(d, f) for d in ("inspect", "amd") for f in os.listdir(d)
               if not f.endswith((".cu", ".cl", ".md", ".sh", ".json", ".py", ".hip", ".c", ".ll")))
same = refused = kernels = 0
differ = []
for path in files:
    with open(path, "rb") as f:
        data = f.read()
    run = subprocess.run([cli, "inspect", "--json", path], capture_output=True, text=True)
    got = inspect_json(data, path)
    if validator is not None and not validator.is_valid(json.loads(got)):
        invalid.append(path)
    if run.returncode == 0:
        ok = got == run.stdout
        kernels += len(json.loads(got).get("kernels", [])) if ok else 0
    else:
        message = run.stderr.split("occcalc: error: ", 1)[-1].split("\n")[0]
        doc = json.loads(got)
        ok = doc.get("error", {}).get("message") == message
        refused += ok
    same += ok
    if not ok:
        differ.append(path)
        if len(differ) <= 3:
            print(f"{path}: inspect exits {run.returncode}\n  inspect {run.stdout[:300] or run.stderr[:300]}\n"
                  f"  C       {got[:300]}")
# Hostile: nothing, one byte, a truncated ELF header; NULL name.
edges = {
    "empty": json.loads(inspect_json(b"", "empty.cubin")).get("error") is not None,
    "truncated": json.loads(inspect_json(b"\x7fELF\x02\x01", "cut.cubin")).get("error") is not None,
    "no name": "kernels" in json.loads(inspect_json(open("inspect/kernels.sm_90.cubin", "rb").read(), None)),
}
for name, text in (("empty", inspect_json(b"", "empty.cubin")), ("truncated", inspect_json(b"\x7fELF\x02\x01", "c"))):
    if validator is not None and not validator.is_valid(json.loads(text)):
        invalid.append(name)
failed = [k for k, v in edges.items() if not v] + [f"{p} against the schema" for p in invalid]
print(f"{len(files)} fixtures ({kernels} kernels; {refused} refused as inspect refuses them) through "
      f"occcalc_inspect_json: {len(differ)} differ from inspect --json; edges: {failed or 'all hold'}")
sys.exit(1 if differ or failed or len(files) < 40 else 0)
