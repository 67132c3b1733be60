"""`pip install .`: the Python module, built by this project's CMake.

The extension is the CMake target occcalc_python (python/CMakeLists.txt),
built with the interpreter pip runs: in OCCCALC_CMAKE_BUILD_DIR, an existing
build directory, as the tests do; else in build-cli/, where the README's
first command built the same objects (the module's own are added); else in a
build directory of its own. Then copied beside the package's Python files
(python/occcalc). Nothing is downloaded: CMake finds pybind11 and the
libraries as Debian installs them.
"""
import importlib.util
import os
import re
import subprocess
import sys

import setuptools
from setuptools import Extension, setup
from setuptools.command.build_ext import build_ext

ROOT = os.path.dirname(os.path.abspath(__file__))


def interpreter_problem():
    """Why this interpreter cannot build the wheel pip asks for, in words, or None: setuptools before 70.1 needs the
    wheel package for bdist_wheel, and pip, offline and without build isolation, only says "invalid command
    'bdist_wheel'"."""
    wheel_commands = ("bdist_wheel", "dist_info")  # dist_info: the metadata pip asks for first
    if not any(c in sys.argv for c in wheel_commands) or importlib.util.find_spec("wheel") is not None:
        return None
    major, minor = (int(part) for part in re.findall(r"\d+", setuptools.__version__)[:2])
    if (major, minor) >= (70, 1):
        return None  # bdist_wheel is setuptools' own
    return (f"occcalc: pip runs {sys.executable} (setuptools {setuptools.__version__}), which has no 'wheel' "
            "package, so it cannot build a wheel ('invalid command bdist_wheel'). Use Debian's python3: "
            "/usr/bin/python3 -m venv --system-site-packages venv && venv/bin/pip install --no-build-isolation . "
            "(apt-get install python3-venv python3-pip python3-wheel pybind11-dev python3-dev), or install wheel "
            "for this interpreter.")


if problem := interpreter_problem():
    sys.exit(problem)
# The version lives in one place.
with open(os.path.join(ROOT, "include", "occcalc", "version.hpp"), encoding="utf-8") as header:
    VERSION = re.search(r'version_string = "([0-9.]+)"', header.read()).group(1)


class cmake_extension(Extension):
    def __init__(self, name):
        super().__init__(name, sources=[])


class cmake_build(build_ext):
    def build_extension(self, ext):
        build = os.environ.get("OCCCALC_CMAKE_BUILD_DIR")
        cli_build = os.path.join(ROOT, "build-cli")
        if not build and os.path.exists(os.path.join(cli_build, "CMakeCache.txt")):
            # The cli preset's build: the same flags (-O1, position-independent), so its objects serve the module.
            build = cli_build
            subprocess.run(["cmake", "-S", ROOT, "-B", build, "-DOCCCALC_BUILD_PYTHON=ON",
                            f"-DPython3_EXECUTABLE={sys.executable}"], check=True)
        if not build:
            build = os.path.join(os.path.abspath(self.build_temp), "cmake")
            os.makedirs(build, exist_ok=True)
            # -O1, as the cli preset builds the first answer: about two thirds of
            # -O3's build time, and the module's calls measure the same.
            subprocess.run(["cmake", "-S", ROOT, "-B", build, "-DCMAKE_BUILD_TYPE=Release",
                            "-DCMAKE_CXX_FLAGS_RELEASE=-O1 -DNDEBUG", "-DCMAKE_POSITION_INDEPENDENT_CODE=ON",
                            "-DOCCCALC_BUILD_TESTS=OFF", "-DOCCCALC_BUILD_BENCH=OFF", "-DOCCCALC_INSTALL=OFF",
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
