"""Built-in puzzle corpora, shipped as package data, and their index."""
