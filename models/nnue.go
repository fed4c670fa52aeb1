package models

import (
	"bytes"
	"embed"
	"fmt"
	"path"

	"colony/nn/nnue"
)

// The nnue evaluators (colony/nn/nnue) of the alpha-beta engines: models/<game>/nnue/NNNNNN.nnue,
// the highest number the default. They are kept apart from the convnets (another
// architecture tag, another loader).
//
//go:embed */nnue/*.nnue
var nnueFiles embed.FS

// ListNNUE returns the embedded nnue model names of game, oldest first.
func ListNNUE(game string) []string { return list(nnueFiles, path.Join(game, "nnue"), ".nnue") }

// LoadNNUE reads the nnue model at file, or game's newest embedded one when file is "", and
// checks that it is for game and encoder version. The name says where it came from; every
// error names the file.
func LoadNNUE(game string, encoderVersion int, file string) (m *nnue.Model, name string, err error) {
	if file != "" {
		m, err = nnue.Load(file)
		name = file
	} else {
		names := ListNNUE(game)
		if len(names) == 0 {
			return nil, "", fmt.Errorf("%s: nnue: %w", game, ErrNoModel)
		}
		name = path.Join(game, "nnue", names[len(names)-1])
		data, rerr := nnueFiles.ReadFile(name)
		if rerr != nil {
			panic(fmt.Sprintf("models: embedded %s unreadable: %v", name, rerr))
		}
		m, err = nnue.Read(bytes.NewReader(data))
		name = "embedded " + name
	}
	if err != nil {
		return nil, "", fmt.Errorf("models: %s: %w", name, err)
	}
	if err := m.CheckFor(game, encoderVersion); err != nil {
		return nil, "", fmt.Errorf("models: %s: %w", name, err)
	}
	return m, name, nil
}
