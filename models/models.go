// Package models embeds Colony's shipped networks: every models/<game>/NNNNNN.model (the
// generation number) of every game is embedded; the highest number is the game's best model
// and the default of `agent -game <game> -engine mcts`.
package models

import (
	"bytes"
	"embed"
	"errors"
	"fmt"
	"io/fs"
	"path"
	"sort"
	"strings"

	"colony/contract"
	"colony/nn"
)

//go:embed */*.model
var files embed.FS

// List returns the embedded model names of game, oldest generation first.
func List(game string) []string { return list(files, game, ".model") }

// list returns the names of the files of dir in fsys that end in ext, sorted.
func list(fsys fs.FS, dir, ext string) []string {
	entries, err := fs.ReadDir(fsys, dir)
	if err != nil {
		return nil
	}
	var names []string
	for _, e := range entries {
		if !e.IsDir() && strings.HasSuffix(e.Name(), ext) {
			names = append(names, e.Name())
		}
	}
	sort.Strings(names)
	return names
}

// Best returns the bytes and the name of game's newest embedded model, or ok=false when none
// ships yet.
func Best(game string) (data []byte, name string, ok bool) {
	names := List(game)
	if len(names) == 0 {
		return nil, "", false
	}
	name = names[len(names)-1]
	data, err := files.ReadFile(path.Join(game, name))
	if err != nil {
		panic(fmt.Sprintf("models: embedded %s/%s unreadable: %v", game, name, err))
	}
	return data, game + "/" + name, true
}

// ErrNoModel says that no model file was given and none is embedded for the game.
var ErrNoModel = errors.New("models: no model file given and none embedded")

// Load reads the model at path, or the game's best embedded model when path is "", and
// checks that it fits the game (name, encoder version, grid, policy size, players). The name
// says where it came from; every error names the file.
func Load(info contract.Info, path string) (m *nn.Model, name string, err error) {
	game := info.Name
	if path != "" {
		m, err = nn.Load(path)
		name = path
	} else {
		data, emb, ok := Best(game)
		if !ok {
			return nil, "", fmt.Errorf("%s: %w", game, ErrNoModel)
		}
		m, err = nn.Read(bytes.NewReader(data))
		name = "embedded " + emb
	}
	if err != nil {
		return nil, "", fmt.Errorf("models: %s: %w", name, err)
	}
	if err := m.CheckFor(info); err != nil {
		return nil, "", fmt.Errorf("models: %s: %w", name, err)
	}
	return m, name, nil
}

// LoadOrRandom returns the network self-play starts from: a fresh random net when random
// names a size ("4x32", for tests), else Load's model (a missing one says how to get one).
func LoadOrRandom(info contract.Info, path, random string) (*nn.Model, string, error) {
	if random != "" {
		var b, c int
		if _, err := fmt.Sscanf(random, "%dx%d", &b, &c); err != nil {
			return nil, "", fmt.Errorf("random net %q: want BLOCKSxCHANNELS", random)
		}
		return nn.NewRandom(nn.ArchFor(info, b, c), 1), "random " + random, nil
	}
	m, name, err := Load(info, path)
	if errors.Is(err, ErrNoModel) {
		return nil, "", fmt.Errorf("%w: pass -model, -random-net or -bootstrap", err)
	}
	return m, name, err
}
