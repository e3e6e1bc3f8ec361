"""The benchmarks behind `scripts/bench`: each prints its figures against a baseline measured in the
same run (raw loop, raw signature verification, raw ZeroMQ round trip), so that ratios compare across
machines. Not part of the installed program; run from the project root (`python -m benchmarks.NAME`)."""
