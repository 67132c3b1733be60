#!/usr/bin/env python3
"""Bundles the web page into one file: index.html with style.css, the
emscripten module's script, the WebAssembly (gzip, then base64, handed to the module
as its bytes, so nothing is fetched) and app.js in place of its markers.

usage: bundle.py --source web/ --module occcalc_web.js --version X.Y.Z --output index.html
"""
import argparse
import base64
import gzip
import os
import sys


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--source", required=True, help="the web/ directory")
    ap.add_argument("--module", required=True, help="emscripten's .js; its .wasm lies beside it")
    ap.add_argument("--version", required=True)
    ap.add_argument("--output", required=True)
    args = ap.parse_args()

    def read(path):
        with open(path, encoding="utf-8") as f:
            return f.read()

    with open(os.path.splitext(args.module)[0] + ".wasm", "rb") as f:
        # gzip first: base64 text of the raw WebAssembly compresses poorly
        # when the page is served gzipped; the page unpacks it with the
        # browser's DecompressionStream.
        wasm = base64.b64encode(gzip.compress(f.read(), compresslevel=9, mtime=0)).decode("ascii")
    module = read(args.module)
    parts = {
        "/*STYLE*/": read(os.path.join(args.source, "style.css")),
        "/*MODULE*/": module,
        "/*WASM*/": wasm,
        "/*APP*/": read(os.path.join(args.source, "app.js")),
        "/*VERSION*/": args.version,
    }
    page = read(os.path.join(args.source, "index.html"))
    for marker, text in parts.items():
        if page.count(marker) != 1:
            sys.exit(f"bundle.py: index.html must hold {marker} once")
        if "</script" in text.lower() and marker != "/*STYLE*/":
            sys.exit(f"bundle.py: the text for {marker} holds </script")
        page = page.replace(marker, text)
    with open(args.output, "w", encoding="utf-8") as f:
        f.write(page)


if __name__ == "__main__":
    main()
