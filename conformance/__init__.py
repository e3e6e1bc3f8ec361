"""The conformance kit: test vectors generated from this implementation (`python -m conformance.make_vectors`,
written to docs/vectors/) and a runner that checks another implementation's verifier against the replay
vectors (`python -m conformance.check --verifier "CMD {file}"`). docs/conformance.md says how to use both.

It sits outside the layers (like tests/ and benchmarks/): the generator imports the implementation, the
runner (`check.py`) and the JSON value helpers (`values.py`) only the standard library, so that a second
implementation can run them with nothing of netplay installed."""
