package models

import "path"

// NewestNNUE returns the bytes of game's newest embedded nnue net (the one LoadNNUE reads
// for file ""), for programs that carry the net elsewhere: the browser page (colony/web)
// hands it to its WebAssembly engine, which imports no embedded file.
func NewestNNUE(game string) (data []byte, name string, ok bool) {
	names := ListNNUE(game)
	if len(names) == 0 {
		return nil, "", false
	}
	name = path.Join(game, "nnue", names[len(names)-1])
	data, err := nnueFiles.ReadFile(name)
	return data, name, err == nil
}
