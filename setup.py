"""`pip install .`: the Python module, built by this project's CMake.

The extension is the CMake target occcalc_python (python/CMakeLists.txt),
built in a build directory of its own with the interpreter pip runs (or in
OCCCALC_CMAKE_BUILD_DIR, an existing one, as the tests do), then copied
beside the package's Python files (python/occcalc). Nothing is downloaded:
CMake finds pybind11 and the libraries as Debian installs them.
"""
import os
import re
import subprocess
import sys

from setuptools import Extension, setup
from setuptools.command.build_ext import build_ext

ROOT = os.path.dirname(os.path.abspath(__file__))
# The version lives in one place.
with open(os.path.join(ROOT, "include", "occcalc", "version.hpp"), encoding="utf-8") as header:
    VERSION = re.search(r'version_string = "([0-9.]+)"', header.read()).group(1)


class cmake_extension(Extension):
    def __init__(self, name):
        super().__init__(name, sources=[])


class cmake_build(build_ext):
    def build_extension(self, ext):
        build = os.environ.get("OCCCALC_CMAKE_BUILD_DIR")
        if not build:
            build = os.path.join(os.path.abspath(self.build_temp), "cmake")
            os.makedirs(build, exist_ok=True)
            # -O1, as the cli preset builds the first answer: about two thirds of
            # -O3's build time, and the module's calls measure the same.
            subprocess.run(["cmake", "-S", ROOT, "-B", build, "-DCMAKE_BUILD_TYPE=Release",
                            "-DCMAKE_CXX_FLAGS_RELEASE=-O1 -DNDEBUG", "-DOCCCALC_BUILD_TESTS=OFF", "-DOCCCALC_BUILD_BENCH=OFF", "-DOCCCALC_INSTALL=OFF",
                            "-DOCCCALC_BUILD_PYTHON=ON", "-DOCCCALC_BUILD_LIBRARY=OFF",
                            f"-DPython3_EXECUTABLE={sys.executable}"], check=True)
        subprocess.run(["cmake", "--build", build, "--target", "occcalc_python", "-j", str(os.cpu_count() or 1)],
                       check=True)
        built = os.path.join(build, "python", "occcalc", os.path.basename(self.get_ext_filename(ext.name)))
        target = self.get_ext_fullpath(ext.name)
        os.makedirs(os.path.dirname(target), exist_ok=True)
        self.copy_file(built, target)


setup(
    version=VERSION,
    packages=["occcalc"],
    package_dir={"": "python"},
    package_data={"occcalc": ["py.typed", "__init__.pyi"]},
    ext_modules=[cmake_extension("occcalc._occcalc")],
    cmdclass={"build_ext": cmake_build},
    zip_safe=False,
)
