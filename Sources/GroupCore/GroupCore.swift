// GroupCore: the app core members run; see IO/CoreIO.swift for its boundary.
