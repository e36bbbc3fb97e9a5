"""The shared core: the vocabulary and rules every process uses, and nothing that runs a model.

The engine protocol and error codes, the one file opener and atomic writer, audio in and out,
the one number check, text rules, reference clips, model downloads, the listener model and the
child processes' lifeline. It imports no other part of the engine.
"""
