"""Tasks on worker processes or on a Dask cluster."""
