package nnue

import (
	"errors"
	"fmt"
	"maps"
	"strings"
)

// Average returns the weight-wise mean of models of one architecture: a "soup" of nets
// trained from a common start (fine-tunes of one parent lie in one basin of the loss, where
// the mean of their weights can predict better than any of them). The step is the largest
// of theirs, the metadata the first's, with the averaged nets' weight hashes recorded under
// averaged_from. A model of another architecture or game is an error naming it.
func Average(models ...*Model) (*Model, error) {
	if len(models) < 2 {
		return nil, errors.New("nnue: average needs at least two models")
	}
	a := models[0].Arch
	out := NewModel(a)
	maps.Copy(out.Meta, models[0].Meta)
	sums := out.Weights.Tensors(a)
	acc := make([][]float64, len(sums))
	for i, t := range sums {
		acc[i] = make([]float64, len(*t.Data))
	}
	hashes := make([]string, len(models))
	for n, m := range models {
		if m.Arch != a {
			return nil, fmt.Errorf("nnue: average: model %d is %s, model 0 is %s", n, m.Arch, a)
		}
		if err := m.CheckShapes(); err != nil {
			return nil, fmt.Errorf("nnue: average: model %d: %w", n, err)
		}
		for i, t := range m.Weights.Tensors(a) {
			for j, x := range *t.Data {
				acc[i][j] += float64(x)
			}
		}
		out.Step = max(out.Step, m.Step)
		hashes[n] = m.SHA256()
	}
	k := float64(len(models))
	for i, t := range sums {
		for j := range *t.Data {
			(*t.Data)[j] = float32(acc[i][j] / k)
		}
	}
	out.Meta["averaged_from"] = strings.Join(hashes, ",")
	return out, nil
}
