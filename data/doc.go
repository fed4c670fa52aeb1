// Package data is Colony's game-agnostic training-data format: self-play examples stored in
// checksummed, zstd-compressed shard files, a loader that skips damaged shards loudly, and a
// replay window that samples the newest examples with symmetry augmentation.
//
// # Shard file layout (format versions 1-3, all integers little-endian)
//
//	offset  size  field
//	0       8     magic "COLSHARD"
//	8       4     format version (1, 2 or 3)
//	12      4     H: length of the header body that follows
//	16      H     header body:
//	                u16 len + game name (UTF-8)
//	                u32 encoder version
//	                u32 input size (float32 values per example)
//	                u32 policy size (dense policy length)
//	                u32 plane size (input packing unit; divides input size)
//	                u32 flags (0 in version 1; version 2: 1 = scores;
//	                    version 3: 1 = scores, 2 = moves)
//	                u64 example count
//	                u64 uncompressed payload length
//	                u64 compressed payload length C
//	                u32 len + Meta as JSON
//	16+H    C     payload: one zstd frame holding the records
//	end-32  32    SHA-256 of every byte before it
//
// The trailing SHA-256 is the last 32 bytes in every format version, so a reader checks it
// before trusting anything else: a flipped byte anywhere, or a truncated file, is reported as
// corruption (ErrCorrupt) rather than as a strange version or game.
//
// # Records (uncompressed payload)
//
// Each example, back to back:
//
//	u64      GameID
//	uvarint  Ply
//	4 x f32  Values
//	uvarint  number of policy entries, then per entry: uvarint Index, f32 Prob
//	packed input: per plane of PlaneSize values, a tag byte then its data:
//	                0 all +0.0 | 1 all 1.0 | 2 one constant (f32) |
//	                3 bitmap of 0/1 values (ceil(PlaneSize/8) bytes, LSB first) |
//	                4 raw f32 values
//
// A version 2 or 3 shard with flag 1 stores 4 x f32 Scores after Values in every record.
//
// # Moves (format version 3, flag 2)
//
// After the records, the payload holds every game's moves so that a reader can replay the
// game and check each example against the position its moves reach (package ingest):
//
//	uvarint  number of games G
//	G times: u64 GameID, uvarint number of moves N, N x uvarint policy index
//
// Games are in increasing GameID order, each GameID of an example has its game, and a shard
// holds whole games (Writer.AddGame). Writers emit version 3 only for shards with moves,
// version 2 otherwise; every version from 1 is read.
//
// Packing is exact to the bit (a plane is tagged 0, 1 or 3 only when every value's bit
// pattern is exactly +0.0 or 1.0), so a round trip returns identical float32 bits.
//
// Shards are written to a temporary file (a name starting with "." and ending in ".tmp")
// in the target directory, fsynced, renamed into place and the directory fsynced, so a crash
// leaves either a whole shard or an ignored temporary file. Readers only look at files named
// *.shard that do not start with ".".
package data
