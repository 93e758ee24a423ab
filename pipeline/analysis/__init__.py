"""The analysis layer: arrays or bytes in, arrays or tables out; never a file path."""
