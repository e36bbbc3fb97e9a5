"""The Characters tab: the voices, each with its reference clip, trim, transcript and delivery."""
