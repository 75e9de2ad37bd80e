"""The page model: shapes in millimetres, lengths, colours, fonts and their subsets."""
