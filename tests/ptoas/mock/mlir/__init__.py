"""A stand-in for the MLIR Python bindings, just enough of them to run PTOAS's sample builder
scripts (test/samples/*/*.py) and print the kernel they build as PTO-AS text for pto-as/pto-run.
Debian has no MLIR Python bindings, so this is how those samples reach the toolchain here. Our
own code: it knows the builder calls the samples make, not MLIR. See tests/ptoas/README.md."""
