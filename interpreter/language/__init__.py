"""The language front end: sources, YAML, parsing, the AST, names and types, schemas, formatting."""
