"""What every layer uses: errors users see, strict numbers, safe files, the one source of randomness, the languages."""
