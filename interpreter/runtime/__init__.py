"""The compiler and the run time: a checked ruleset becomes a Program that the engine plays."""
