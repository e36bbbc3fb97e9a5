"""`dubstudio serve`: engines behind Ray Serve (app.py, needs the `serve` extra) and its options
(config.py, plain Python). Clients never import this package: they speak HTTP (engine.synthesis.client.remote)."""
