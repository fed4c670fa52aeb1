// Package onnxrun runs ONNX models exported by colony/nn/onnx.ExportBatch with onnx-go v0.5.0
// (gorgonnx backend). It exists to check the export against an independent runtime and lives
// apart from package nn so that the agent binary does not link gorgonia.
package onnxrun

import (
	"errors"
	"fmt"

	"github.com/owulveryck/onnx-go"
	"github.com/owulveryck/onnx-go/backend/x/gorgonnx"
	"gorgonia.org/tensor"
)

// Runner holds one decoded ONNX model. It is not safe for concurrent use.
//
// onnx-go's gorgonnx backend creates a gorgonia tape machine internally and offers no way to
// close it; a Runner is meant for tests and one-off checks, not for long-lived services.
type Runner struct {
	backend *gorgonnx.Graph
	model   *onnx.Model
	shape   []int
}

// Load decodes an ONNX model with one float input of a fixed shape.
func Load(data []byte) (*Runner, error) {
	backend := gorgonnx.NewGraph()
	model := onnx.NewModel(backend)
	if err := model.UnmarshalBinary(data); err != nil {
		return nil, fmt.Errorf("onnxrun: decode model: %w", err)
	}
	ins := model.GetInputTensors()
	if len(ins) != 1 || ins[0] == nil {
		return nil, fmt.Errorf("onnxrun: model has %d inputs, want 1", len(ins))
	}
	return &Runner{backend: backend, model: model, shape: append([]int(nil), ins[0].Shape()...)}, nil
}

// Run evaluates input (laid out as the model's input shape) and returns a copy of every output, in the
// order of the model's outputs.
func (r *Runner) Run(input []float32) ([][]float32, error) {
	want := 1
	for _, d := range r.shape {
		want *= d
	}
	if len(input) != want {
		return nil, fmt.Errorf("onnxrun: input has %d values, shape %v needs %d", len(input), r.shape, want)
	}
	t := tensor.New(tensor.WithShape(r.shape...), tensor.WithBacking(append([]float32(nil), input...)))
	if err := r.model.SetInput(0, t); err != nil {
		return nil, fmt.Errorf("onnxrun: set input: %w", err)
	}
	if err := r.backend.Run(); err != nil {
		return nil, fmt.Errorf("onnxrun: run: %w", err)
	}
	outs, err := r.model.GetOutputTensors()
	if err != nil {
		return nil, fmt.Errorf("onnxrun: outputs: %w", err)
	}
	res := make([][]float32, len(outs))
	for i, o := range outs {
		if o == nil {
			return nil, errors.New("onnxrun: output tensor is nil")
		}
		d, ok := o.Data().([]float32)
		if !ok {
			return nil, fmt.Errorf("onnxrun: output %d is %T, want []float32", i, o.Data())
		}
		res[i] = append([]float32(nil), d...)
	}
	return res, nil
}
