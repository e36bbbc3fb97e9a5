"""Speaker embeddings: which voice a recording holds, as a unit vector.

Used in the engine process (a voice's resemblance to its clip, the voice cache) and in hearing
(speakers of a video, take QA). The networks run on onnxruntime, without torch.
"""
