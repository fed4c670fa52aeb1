package data

import (
	"encoding/binary"
	"fmt"
	"math"
)

// Plane tags of the packed input encoding (see the package documentation).
const (
	tagZero   = 0
	tagOne    = 1
	tagConst  = 2
	tagBitmap = 3
	tagRaw    = 4
)

const oneBits = 0x3f800000 // math.Float32bits(1)

// appendPackedInput appends the packed form of in (len(in) a multiple of planeSize) to dst.
func appendPackedInput(dst []byte, in []float32, planeSize int) []byte {
	for base := 0; base < len(in); base += planeSize {
		plane := in[base : base+planeSize]
		first := math.Float32bits(plane[0])
		constant, binary01 := true, true
		for _, v := range plane {
			b := math.Float32bits(v)
			if b != first {
				constant = false
			}
			if b != 0 && b != oneBits {
				binary01 = false
			}
		}
		switch {
		case constant && first == 0:
			dst = append(dst, tagZero)
		case constant && first == oneBits:
			dst = append(dst, tagOne)
		case constant:
			dst = append(dst, tagConst)
			dst = binary.LittleEndian.AppendUint32(dst, first)
		case binary01:
			dst = append(dst, tagBitmap)
			for i := 0; i < planeSize; i += 8 {
				var by byte
				for j := i; j < i+8 && j < planeSize; j++ {
					if math.Float32bits(plane[j]) == oneBits {
						by |= 1 << (j - i)
					}
				}
				dst = append(dst, by)
			}
		default:
			dst = append(dst, tagRaw)
			for _, v := range plane {
				dst = binary.LittleEndian.AppendUint32(dst, math.Float32bits(v))
			}
		}
	}
	return dst
}

// packedInputLen returns the length of the packed input at the start of src, checking the
// tags and that src is long enough.
func packedInputLen(src []byte, inputSize, planeSize int) (int, error) {
	off := 0
	for base := 0; base < inputSize; base += planeSize {
		if off >= len(src) {
			return 0, fmt.Errorf("packed input ends at plane %d", base/planeSize)
		}
		tag := src[off]
		off++
		switch tag {
		case tagZero, tagOne:
		case tagConst:
			off += 4
		case tagBitmap:
			off += (planeSize + 7) / 8
		case tagRaw:
			off += 4 * planeSize
		default:
			return 0, fmt.Errorf("plane %d has unknown tag %d", base/planeSize, tag)
		}
		if off > len(src) {
			return 0, fmt.Errorf("packed input ends inside plane %d", base/planeSize)
		}
	}
	return off, nil
}

// unpackInput decodes a packed input that packedInputLen accepted into dst[:inputSize].
func unpackInput(src []byte, dst []float32, planeSize int) {
	off := 0
	for base := 0; base < len(dst); base += planeSize {
		plane := dst[base : base+planeSize]
		tag := src[off]
		off++
		switch tag {
		case tagZero:
			clear(plane)
		case tagOne:
			for i := range plane {
				plane[i] = 1
			}
		case tagConst:
			v := math.Float32frombits(binary.LittleEndian.Uint32(src[off:]))
			off += 4
			for i := range plane {
				plane[i] = v
			}
		case tagBitmap:
			for i := range plane {
				plane[i] = float32(src[off+i>>3] >> (i & 7) & 1)
			}
			off += (planeSize + 7) / 8
		case tagRaw:
			for i := range plane {
				plane[i] = math.Float32frombits(binary.LittleEndian.Uint32(src[off+4*i:]))
			}
			off += 4 * planeSize
		}
	}
}
