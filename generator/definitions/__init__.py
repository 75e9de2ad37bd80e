"""Game definitions: the schema language, the validated values, the loader of layouts/*.toml and pnp check."""
