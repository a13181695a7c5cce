"""Build the optional C kernel of warbench.geometry.fastpath.

Everything else is in pyproject.toml. The extension is optional: without a C
compiler the package installs and runs on the pure-Python search.
"""

from setuptools import Extension, setup

setup(
    ext_modules=[
        Extension(
            "warbench.geometry._reach",
            ["src/warbench/geometry/_reach.c"],
            optional=True,
        )
    ]
)
