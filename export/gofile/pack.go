package gofile

import (
	"bytes"
	"compress/flate"
)

// The carried files travel as one literal: concatenated, split into 4 byte planes (byte i of
// every 4-byte word together: float32 weights compress about 10% better that way), DEFLATEd at
// the best level and written in Z85 (ZeroMQ's base-85: 5 characters per 4 bytes, an alphabet
// without quotes, backslash or backquote, so it sits in a raw string literal). A raw 650 KB model
// becomes about 530 KB of DEFLATE and 665 KB of text, unpacked in a few milliseconds.

const z85Alphabet = "0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ.-:+=^!/*?&<>()[]{}@%$#"

// planes splits b into 4 byte planes (the tail that does not fill a word stays as it is).
func planes(b []byte) []byte {
	k := len(b) / 4
	out := make([]byte, len(b))
	for p := range 4 {
		for i := range k {
			out[p*k+i] = b[i*4+p]
		}
	}
	copy(out[4*k:], b[4*k:])
	return out
}

// unplanes undoes planes.
func unplanes(b []byte) []byte {
	k := len(b) / 4
	out := make([]byte, len(b))
	for p := range 4 {
		for i := range k {
			out[i*4+p] = b[p*k+i]
		}
	}
	copy(out[4*k:], b[4*k:])
	return out
}

// deflate compresses b at the best level (deterministic for a given Go release).
func deflate(b []byte) []byte {
	var buf bytes.Buffer
	w, err := flate.NewWriter(&buf, flate.BestCompression)
	if err != nil {
		panic(err)
	}
	w.Write(b)
	w.Close()
	return buf.Bytes()
}

// z85 encodes b, zero-padded to a multiple of 4 bytes (the DEFLATE stream ends by itself).
func z85(b []byte) string {
	for len(b)%4 != 0 {
		b = append(b[:len(b):len(b)], 0)
	}
	out := make([]byte, 0, len(b)/4*5)
	for i := 0; i < len(b); i += 4 {
		v := uint32(b[i])<<24 | uint32(b[i+1])<<16 | uint32(b[i+2])<<8 | uint32(b[i+3])
		var d [5]byte
		for j := 4; j >= 0; j-- {
			d[j] = z85Alphabet[v%85]
			v /= 85
		}
		out = append(out, d[:]...)
	}
	return string(out)
}

// pack turns the carried bytes into the literal's text.
func pack(b []byte) string { return z85(deflate(planes(b))) }
