#!/usr/bin/env python3
"""The layout's rules, checked on the source tree (docs/contributing.md: Layout).

- Public headers include only their own layer and the layers below it:
  common <- nvidia, amd <- tables <- request (error.hpp and version.hpp are
  below them all). common/ names no vendor.
- In src/: cli/app.cpp (the parser), cli/command_options.cpp (each
  command's options), cli/help_format.cpp (its help text) and
  cli/parse_errors.cpp are the only files that include CLI11. builds/, the
  home of reading a build, never includes cli/, commands/ or render/; its
  readers (builds/readers/) include nothing else of builds/, nor io/ or
  analysis/; analysis/ (what a request concludes) and io/ include none of
  builds/; render/ never includes cli/ or commands/.
- No two src/ files in different folders share a name (a header and its
  source share one folder): each name says what it holds wherever it is
  included. The public headers' vendor layers (nvidia/occupancy.hpp,
  amd/occupancy.hpp) are exempt: their paths are the library's API.
- No source file is longer than MAX_LINES.
- The umbrella header (occcalc.hpp) reaches no JSON library: a program that
  reads table files includes tables/load.hpp itself.
- Only the files in NLOHMANN_FILES include nlohmann's whole header, itself
  or through the core's JSON readers (and those that read table files).
- Only the files in RAPIDJSON_FILES include RapidJSON.

Usage: layers.py SOURCE_DIR. Prints one line per breach; exit 1 if any.
"""
import pathlib
import re
import sys

MAX_LINES = 420
# What a generated source (occcalc_tablegen's) says of itself.
GENERATED_MARK = "written by occcalc_tablegen"

# The command line: the parser, each command's options and the help text.
CLI11_FILES = ("cli/app.cpp", "cli/command_options.cpp", "cli/help_format.cpp", "cli/parse_errors.cpp")

# The src/ files that include nlohmann's whole header: the readers of JSON
# (policy, saved inspect, Triton metadata, batch lines). Every JSON output
# leaves through render/json_writer: nlohmann only reads. A file leaves this
# list when it stops; none joins it but a part of one split out, included by
# that one alone (saved_record_stream.hpp, saved_inspect.cpp's parser).
NLOHMANN_FILES = {
    "builds/policy.cpp", "builds/saved_inspect.cpp", "builds/saved_record_stream.hpp", "builds/triton.cpp",
    "commands/batch_line.cpp",
    # The writer's escaping of text that is not plain (invalid UTF-8 replaced),
    # and its bridge for values read from the input (a batch line's id).
    "render/json_string.cpp", "render/json_writer.cpp",
}

# The src/ files that include RapidJSON: the reader of a saved inspect
# --json, hundreds of megabytes (docs/contributing.md, "Dependencies").
RAPIDJSON_FILES = {"builds/saved_inspect.cpp", "builds/saved_record_stream.hpp"}

# The core's JSON readers, which include nlohmann's whole header: only the
# files of NLOHMANN_FILES and those that read table files may include them,
# so that no header carries nlohmann into the translation units that include
# it.
JSON_READER_HEADERS = ("occcalc/tables/load.hpp", "occcalc/tables/json_input.hpp", "occcalc/tables/entry_reader.hpp")
TABLE_FILE_READERS = {"cli/tables.cpp", "tablegen/tablegen.cpp"}

# Which public layers each layer may include (besides itself).
BASE = {"error.hpp", "version.hpp"}
TOP_LEVEL = BASE | {"occcalc.hpp"}
ALLOWED = {
    "common": set(),
    "nvidia": {"common"},
    "amd": {"common"},
    "tables": {"common", "nvidia", "amd"},
    "request": {"common", "nvidia", "amd", "tables"},
}
VENDOR_WORDS = re.compile(r"\b(nvidia|amd|cuda|hip|rocm|gfx\d*|sm_\d+)\b", re.IGNORECASE)
INCLUDE = re.compile(r'^\s*#\s*include\s*[<"]([^>"]+)[>"]', re.MULTILINE)

# src/ areas (a top folder, or builds/readers) and the areas they must not
# include.
SRC_FORBIDDEN = {
    "analysis": {"cli", "commands", "render", "builds", "builds/readers"},
    "builds": {"cli", "commands", "render"},
    "builds/readers": {"cli", "commands", "render", "analysis", "io", "builds"},
    "render": {"cli", "commands"},
    "io": {"cli", "commands", "render", "analysis", "builds", "builds/readers"},
    "commands": {"cli"},
}


def area_of(path: str) -> str:
    """The area of a path under src/: builds/readers, or its top folder."""
    parts = path.split("/")
    if len(parts) > 2 and parts[:2] == ["builds", "readers"]:
        return "builds/readers"
    return parts[0] if len(parts) > 1 else ""


def main() -> int:
    root = pathlib.Path(sys.argv[1])
    problems = []
    include_root = root / "include" / "occcalc"
    for header in sorted(include_root.rglob("*.hpp")):
        rel = header.relative_to(include_root)
        text = header.read_text(encoding="utf-8")
        # Each public header's first line names it by its own path.
        if not text.startswith(f"/// \\file {rel.as_posix()}\n"):
            problems.append(f"include/occcalc/{rel}: its first line must be '/// \\file {rel.as_posix()}'")
        if len(rel.parts) == 1:
            # The umbrella, error and version: every other header is in its layer.
            if rel.name not in TOP_LEVEL:
                problems.append(f"include/occcalc/{rel}: a header outside a layer ({', '.join(sorted(TOP_LEVEL))} "
                                "are the only ones at the top)")
            continue
        layer = rel.parts[0]
        allowed = ALLOWED.get(layer)
        if allowed is None:
            problems.append(f"include/occcalc/{rel}: {layer}/ is not a layer ({', '.join(ALLOWED)})")
            continue
        for target in INCLUDE.findall(text):
            if not target.startswith("occcalc/"):
                continue
            parts = pathlib.PurePosixPath(target).parts[1:]
            if len(parts) == 1:
                if parts[0] not in BASE:
                    problems.append(f"include/occcalc/{rel}: includes the old path {target}")
                continue
            if parts[0] != layer and parts[0] not in allowed:
                problems.append(f"include/occcalc/{rel}: {layer}/ may not include {target}")
        if layer == "common":
            for number, line in enumerate(text.splitlines(), 1):
                if VENDOR_WORDS.search(line):
                    problems.append(f"include/occcalc/{rel}:{number}: common/ names a vendor: {line.strip()}")

    src = root / "src"
    for source in sorted(list(src.rglob("*.cpp")) + list(src.rglob("*.hpp"))):
        rel = source.relative_to(src)
        text = source.read_text(encoding="utf-8")
        folder = area_of(rel.as_posix())
        includes = INCLUDE.findall(text)
        if any(t.startswith("CLI/") for t in includes) and rel.as_posix() not in CLI11_FILES:
            problems.append(f"src/{rel}: only {', '.join(CLI11_FILES)} include CLI11")
        if "nlohmann/json.hpp" in includes and rel.as_posix() not in NLOHMANN_FILES:
            problems.append(f"src/{rel}: includes nlohmann/json.hpp; write JSON with render/json_writer.hpp "
                            "(nlohmann/json_fwd.hpp declares its types)")
        if any(t.startswith("rapidjson/") for t in includes) and rel.as_posix() not in RAPIDJSON_FILES:
            problems.append(f"src/{rel}: only {', '.join(sorted(RAPIDJSON_FILES))} include RapidJSON")
        readers = [t for t in includes if t in JSON_READER_HEADERS]
        if readers and rel.as_posix() not in NLOHMANN_FILES | TABLE_FILE_READERS:
            problems.append(f"src/{rel}: includes {readers[0]}, which brings nlohmann's whole header; "
                            "occcalc/tables/tables.hpp declares the tables")
        for target in includes:
            if area_of(target) in SRC_FORBIDDEN.get(folder, set()):
                problems.append(f"src/{rel}: {folder}/ may not include {target}")

    # One name, one file: a stem in two folders of src/ is one too many.
    folders_of = {}
    for source in sorted(list(src.rglob("*.cpp")) + list(src.rglob("*.hpp"))):
        rel = source.relative_to(src)
        folders_of.setdefault(source.stem, set()).add(rel.parent.as_posix())
    for stem, folders in sorted(folders_of.items()):
        if len(folders) > 1:
            problems.append(f"src/: {stem} names files in {', '.join(sorted(folders))}; give each its own name")

    for listed in sorted(NLOHMANN_FILES):
        path = src / listed
        if not path.exists() or "nlohmann/json.hpp" not in INCLUDE.findall(path.read_text(encoding="utf-8")):
            problems.append(f"tests/layers.py: src/{listed} no longer includes nlohmann/json.hpp; "
                            "take it out of NLOHMANN_FILES")

    # What the umbrella reaches, header by header.
    seen, pending = set(), ["occcalc.hpp"]
    while pending:
        rel = pending.pop()
        if rel in seen or not (include_root / rel).exists():
            continue
        seen.add(rel)
        for target in INCLUDE.findall((include_root / rel).read_text(encoding="utf-8")):
            if target.startswith("nlohmann/"):
                problems.append(f"include/occcalc/{rel}: reached from occcalc.hpp, it includes {target}")
            elif target.startswith("occcalc/"):
                pending.append(target[len("occcalc/"):])

    for tree in (include_root, src):
        for source in sorted(list(tree.rglob("*.cpp")) + list(tree.rglob("*.hpp"))):
            text = source.read_text(encoding="utf-8")
            if GENERATED_MARK in text[:600]:  # its head says a program wrote it from data/
                continue
            lines = text.count("\n")
            if lines > MAX_LINES:
                problems.append(f"{source.relative_to(root)}: {lines} lines; split it (at most {MAX_LINES})")

    for problem in problems:
        print(problem)
    print(f"layers: {len(problems)} problem(s)")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
