"""Sound out and in: streamed playback from a ring buffer, auditions and A/B, and recording a clip."""
