"""Raw inputs from their sources: https downloads, Kaggle datasets, local files, a mirror."""
