"""The fuzzer behind scripts/fuzz (its docstring and docs/fuzzing.md say what it does).

harness.py runs and judges a case; fuzzer.py interleaves the families' cases and prints the
summary; cli.py reads the command line. One module per family — jobs, command_lines, scenes,
pngs, manifests, paths, resume, inputs, heavy, signals, scaling, http — each a mixin of Fuzzer, and
what they draw from apart: values (numbers, strings, JSON mutations), scene_mutations,
png_format and png_mutations; files, process and limits are the harness's tools."""
