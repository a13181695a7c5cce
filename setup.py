"""Build the optional C kernels: geometry.fastpath's reach search and the playout kernels.

Everything else is in pyproject.toml. All extensions are optional: without a
C compiler the package installs and runs on the pure-Python paths.
"""

import os

from setuptools import Extension, setup
from setuptools.command.build_ext import build_ext


class BuildExt(build_ext):
    """Compile the playout kernel without fused multiply-add.

    The kernel must compute the greedy bot's scores with exactly Python's double
    operations; contracting ``a * b + c`` into one rounding would change them.
    """

    def build_extensions(self) -> None:
        if self.compiler.compiler_type != "msvc":  # MSVC does not contract by default
            for ext in self.extensions:
                if ext.name.endswith("._playout"):
                    ext.extra_compile_args = [*ext.extra_compile_args, "-ffp-contract=off"]
        super().build_extensions()


setup(
    cmdclass={"build_ext": BuildExt},
    ext_modules=[
        Extension(
            "warbench.geometry._reach",
            ["src/warbench/geometry/_reach.c"],
            optional=True,
        ),
        Extension(
            "warbench.rulesets.miniwars._playout",
            ["src/warbench/rulesets/miniwars/_playout.c"],
            depends=[
                "src/warbench/rulesets/_playout_common.h",
                "src/warbench/rulesets/_playout_play.h",
            ],
            optional=True,
        ),
        Extension(
            "warbench.rulesets.cgme._playout",
            ["src/warbench/rulesets/cgme/_playout.c"],
            depends=[
                "src/warbench/rulesets/_playout_common.h",
                "src/warbench/rulesets/_playout_play.h",
            ],
            libraries=[] if os.name == "nt" else ["m"],  # pow() for the greedy bot's odds
            optional=True,
        ),
    ],
)
