"""Benchmarks and offline generators for the engine; never imported by the bot itself."""
