package contract

import "io"

// Reader and Writer are io's, named here so that protocol signatures read in one place.
type (
	Reader = io.Reader
	Writer = io.Writer
)
