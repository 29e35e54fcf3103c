"""Packs libpto.so into the package: $PTO_LIBRARY when set (`make install-python` sets it), else
../build/libpto.so of this tree (after `make lib`), else a pto/libpto.so put there by hand.
Nothing is compiled here."""
import os
import shutil

from setuptools import setup
from setuptools.command.build_py import build_py

HERE = os.path.dirname(os.path.abspath(__file__))


class BuildWithLibrary(build_py):
    def run(self):
        super().run()
        target = os.path.join(self.build_lib, "pto", "libpto.so")
        built = os.environ.get("PTO_LIBRARY") or os.path.join(HERE, "..", "build", "libpto.so")
        if os.path.exists(built):  # always copied: a build/lib left by an earlier install may hold an old one
            shutil.copy2(built, target)
        elif not os.path.exists(target):
            print(f"warning: no {built} (run `make lib`); the package will need PTO_LIBRARY at run time")


setup(cmdclass={"build_py": BuildWithLibrary})
