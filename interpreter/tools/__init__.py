"""Play, agents and tools: the command line, simulation, scenarios, narration, benchmarks."""
