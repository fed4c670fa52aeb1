package data

import "math"

func bits(f float32) uint32 { return math.Float32bits(f) }
