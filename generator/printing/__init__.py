"""The print job: paper, imposition, n-up packing, sheets, layout checks, the calibration sheet and the print guide."""
