package train

import (
	"crypto/sha256"
	"encoding/binary"
	"fmt"
	"io"
	"log"
	"math"
	"time"

	G "gorgonia.org/gorgonia"

	"colony/data"
	"colony/nn/nnue"
)

// The validation split of an NNUE run: whole shards are held out (the positions of one game,
// and the games of one generator's shard, are correlated; a split inside a shard would leak
// them), chosen by a hash of the shard's name, never sampled for training, and evaluated every
// epoch (NNUEConfig.ValEvery steps; default one pass worth of samples over the training
// window) through the training graph's own forward pass: the blended MSE the training
// minimizes, and the value MSE against the results alone.

// DefaultValMax is the number of validation examples evaluated when NNUEConfig.ValMax is 0.
const DefaultValMax = 200_000

// shardHash is the split's hash of a shard name, uniform in [0, 1).
func shardHash(name string) float64 {
	h := sha256.Sum256([]byte(name))
	return float64(binary.LittleEndian.Uint64(h[:8])>>11) / (1 << 53)
}

// valSplit picks the held-out shards of dir: the round(frac x N) of its N shards (at least one,
// at most N-1) whose names hash lowest. The rule it returns holds a shard out when its name
// hashes no higher than the last picked, so a shard written later is classified once and for
// all (about frac of them are held out too, and never trained on). It returns nil when frac is
// 0 or dir has fewer than two shards (then nothing can be held out; the caller says so).
func valSplit(dir string, frac float64) (held func(name string) bool, picked, total int, err error) {
	if frac < 0 || frac >= 1 || math.IsNaN(frac) {
		return nil, 0, 0, fmt.Errorf("train: validation fraction %v, want [0, 1)", frac)
	}
	if frac == 0 {
		return nil, 0, 0, nil
	}
	list, err := data.ListShards(dir, nil)
	if err != nil {
		return nil, 0, 0, err
	}
	if len(list) < 2 {
		return nil, 0, len(list), nil
	}
	hs := make([]float64, len(list))
	for i, s := range list {
		hs[i] = shardHash(s.Name)
	}
	k := min(max(int(math.Round(frac*float64(len(list)))), 1), len(list)-1)
	// The k-th lowest hash is the threshold (a partial selection sort: k is small).
	for i := range k {
		m := i
		for j := i + 1; j < len(hs); j++ {
			if hs[j] < hs[m] {
				m = j
			}
		}
		hs[i], hs[m] = hs[m], hs[i]
	}
	limit := hs[k-1]
	return func(name string) bool { return shardHash(name) <= limit }, k, len(list), nil
}

// valSet is the validation examples, unpacked once: each one's pieces, side to move, training
// target (the blend) and result (the side to move's value alone).
type valSet struct {
	pieces [][2]uint64
	stm    []uint8
	target []float32
	result []float32
	shards int
}

// loadValSet reads the newest max examples of the held-out shards of dir (no augmentation).
func loadValSet(dir string, cfg *NNUEConfig, a nnue.Arch, held func(string) bool, warn io.Writer) (*valSet, error) {
	win, err := data.NewWindow(dir, data.WindowOptions{Game: cfg.Game.Name, EncoderVersion: cfg.Game.EncoderVersion,
		Capacity: cfg.ValMax, Warn: warn, Filter: held, ValuesOnly: true})
	if err != nil {
		return nil, err
	}
	if _, err := win.Refresh(); err != nil {
		return nil, err
	}
	n := win.Len()
	v := &valSet{pieces: make([][2]uint64, n), stm: make([]uint8, n), target: make([]float32, n), result: make([]float32, n),
		shards: len(win.Shards())}
	var ex data.Example
	for i := range n {
		win.Example(i, &ex)
		pieces, stm, err := a.Pieces(ex.Input)
		if err != nil {
			return nil, err
		}
		v.pieces[i], v.stm[i] = pieces, uint8(stm)
		v.target[i], v.result[i] = Target(&ex, stm, cfg.ScoreWeight), ex.Values[stm]
	}
	return v, nil
}

// forward runs the training graph forward only on the batch buffers (the subgraph of the
// logits, on a tape machine of its own built on first use: no gradient, no update) and returns
// the logits of the whole batch, which the trainer owns until the next run.
func (t *NNUETrainer) forward() ([]float32, error) {
	if err := t.each((*nnueReplica).forward); err != nil {
		return nil, err
	}
	return t.batchLogits(), nil
}

// forward runs r's graph forward only on its rows.
func (r *nnueReplica) forward() error {
	if r.fwd == nil {
		r.fwd = G.NewTapeMachine(r.net.g.ExactSubgraphRoots(r.net.logit))
	}
	defer r.fwd.Reset()
	if err := r.feed(false); err != nil {
		return err
	}
	if err := r.fwd.RunAll(); err != nil {
		return fmt.Errorf("train: nnue forward: %w", err)
	}
	return nil
}

// validate returns v's MSE of the value (tanh of the logit) against the training targets and
// against the results alone. The rows past v's end in the last batch repeat its first rows and
// are not counted.
func (t *NNUETrainer) validate(v *valSet) (blend, result float64, err error) {
	n := len(v.target)
	if n == 0 {
		return 0, 0, fmt.Errorf("train: no validation examples")
	}
	for i := 0; i < n; i += t.batch {
		for j := range t.batch {
			k := (i + j) % n
			t.SetExample(j, v.pieces[k], int(v.stm[k]), v.target[k])
		}
		logits, err := t.forward()
		if err != nil {
			return 0, 0, err
		}
		for j := range min(t.batch, n-i) {
			y := math.Tanh(float64(logits[j]))
			d, r := y-float64(v.target[i+j]), y-float64(v.result[i+j])
			blend += d * d
			result += r * r
		}
	}
	return blend / float64(n), result / float64(n), nil
}

// nnueMonitor follows an NNUE run: it validates every period steps, writes the per-epoch CSV
// and the loss-curve plot, and keeps the model of the lowest validation loss (NNUEConfig.BestVal).
type nnueMonitor struct {
	cfg     *NNUEConfig
	t       *NNUETrainer
	tc      *Config
	lg      *log.Logger
	val     *valSet
	period  int64   // validate every this many steps (0: no validation)
	epoch   int64   // steps in an epoch: the training window over the batch
	first   int64   // this process's first step
	origin  int64   // the step the epochs and the validation period count from: first, or a resumed run's own first step
	secs0   float64 // seconds the run trained before this process (a resumed run's stopped parts)
	resumed bool
	curve   *EpochLog
	steps   []StepStats  // this run's steps (loss and rate) for the plot without a step CSV
	rows    []EpochStats // this run's validations for the plot without an epoch CSV
	sum     float64      // training losses since the last validation
	n       int
	last    int64 // the step of the last validation
	began   time.Time
	best    *nnue.Model
	bestVal float64
	bestRow EpochStats
}

// newNNUEMonitor sets up the monitor of a run whose training window holds trainLen examples.
// A resumed run (resume, else nil) goes on counting its epochs, validation steps and seconds
// from where the stopped run began (its schedule's start), as if it had not stopped.
func newNNUEMonitor(cfg *NNUEConfig, t *NNUETrainer, tc *Config, val *valSet, trainLen int, lg *log.Logger, resume *nnueCkpt) (*nnueMonitor, error) {
	if cfg.ValEvery < 0 {
		return nil, fmt.Errorf("train: nnue: validation period %d steps", cfg.ValEvery)
	}
	mo := &nnueMonitor{cfg: cfg, t: t, tc: tc, lg: lg, val: val, first: t.step, origin: t.step, last: -1, began: time.Now(),
		epoch: max(int64((trainLen+cfg.Batch-1)/cfg.Batch), 1), bestVal: math.Inf(1)}
	if resume != nil {
		mo.origin, mo.secs0, mo.resumed = tc.ScheduleStart, resume.Seconds, true
	}
	if val != nil {
		mo.period = mo.epoch
		if cfg.ValEvery > 0 {
			mo.period = cfg.ValEvery
		}
		lg.Printf("validation: %d examples of %d held-out shards, every %d steps (an epoch is %d steps: %d examples / batch %d)",
			len(val.target), val.shards, mo.period, mo.epoch, trainLen, cfg.Batch)
	}
	if cfg.EpochCSV != "" {
		var err error
		if mo.curve, err = OpenEpochLog(cfg.EpochCSV, t.step); err != nil {
			return nil, err
		}
		if mo.resumed && mo.secs0 == 0 {
			mo.secs0 = mo.curve.lastSecs // a checkpoint from before Seconds was kept: the last row's
		}
	}
	return mo, nil
}

// seconds is the run's training time so far, a resumed run's earlier parts included.
func (mo *nnueMonitor) seconds() float64 { return mo.secs0 + time.Since(mo.began).Seconds() }

// start validates the start model (the curve's first point), unless the epoch CSV of the run
// continued from has it already or the run is resumed (its curve goes on at its own period).
func (mo *nnueMonitor) start() error {
	if mo.val == nil {
		return nil
	}
	if mo.resumed || mo.curve != nil && mo.curve.last == mo.t.step {
		mo.last = mo.t.step
		return nil
	}
	return mo.validate()
}

// afterStep records the loss of the step just taken at learning rate lr, and validates when
// the period is up.
func (mo *nnueMonitor) afterStep(loss, lr float64) error {
	mo.sum += loss
	mo.n++
	if mo.cfg.Plot != "" && mo.cfg.CSV == "" {
		mo.steps = append(mo.steps, StepStats{Step: mo.t.step, Total: loss, Value: loss, LR: lr})
	}
	if mo.period > 0 && (mo.t.step-mo.origin)%mo.period == 0 {
		return mo.validate()
	}
	return nil
}

// validate evaluates the validation set, logs and writes the row, and keeps the best model.
func (mo *nnueMonitor) validate() error {
	t := mo.t
	began := time.Now()
	blend, result, err := t.validate(mo.val)
	if err != nil {
		return err
	}
	row := EpochStats{Step: t.step, Epoch: float64(t.step-mo.origin) / float64(mo.epoch), LR: mo.tc.LRAt(max(t.step-1, 0)),
		Train: math.NaN(), Val: blend, ValResult: result, ValExamples: len(mo.val.target), Seconds: mo.seconds()}
	if mo.n > 0 {
		row.Train = mo.sum / float64(mo.n)
	}
	mo.sum, mo.n, mo.last = 0, 0, t.step
	if mo.cfg.Plot != "" && mo.cfg.EpochCSV == "" {
		mo.rows = append(mo.rows, row)
	}
	// The start model's own figure counts too: a run that never beats the net it started from
	// says so, and with BestVal writes that net back.
	mark := ""
	if blend < mo.bestVal {
		mo.bestVal, mo.bestRow, mark = blend, row, " (best)"
		if mo.cfg.BestVal {
			mo.best = t.Model()
		}
	}
	train := "training mse -" // no step since the last validation
	if !math.IsNaN(row.Train) {
		train = fmt.Sprintf("training mse %.4f", row.Train)
	} else if t.step == mo.first {
		train = "the start model, before any training step"
	}
	mo.lg.Printf("epoch %.2f step %d: validation mse %.4f (results alone %.4f) %s lr %.3g%s  [%.1fs]",
		row.Epoch, row.Step, blend, result, train, row.LR, mark, time.Since(began).Seconds())
	if mo.curve != nil {
		return mo.curve.Write(row)
	}
	return nil
}

// finish validates the final model when the last step was not, closes the CSV, draws the
// plot, and returns the model of the lowest validation loss when cfg.BestVal (else nil).
func (mo *nnueMonitor) finish() (*nnue.Model, error) {
	if mo.val != nil && mo.last != mo.t.step {
		if err := mo.validate(); err != nil {
			return nil, err
		}
	}
	if mo.curve != nil {
		if err := mo.curve.Close(); err != nil {
			return nil, err
		}
	}
	if mo.val != nil && !math.IsInf(mo.bestVal, 1) {
		if mo.bestRow.Step == mo.first && mo.t.step > mo.first {
			mo.lg.Printf("lowest validation mse %.4f at epoch %.2f (step %d): the start model's own; no step of this run beat it", mo.bestVal, mo.bestRow.Epoch, mo.bestRow.Step)
		} else {
			mo.lg.Printf("lowest validation mse %.4f at epoch %.2f (step %d)", mo.bestVal, mo.bestRow.Epoch, mo.bestRow.Step)
		}
	}
	if mo.cfg.Plot != "" {
		if err := mo.plot(); err != nil {
			return nil, err
		}
		mo.lg.Printf("wrote %s", mo.cfg.Plot)
	}
	return mo.best, nil
}

// close releases the CSV (a run that stopped early).
func (mo *nnueMonitor) close() {
	if mo.curve != nil {
		mo.curve.Close()
	}
}

// plot draws the run's curves from the CSVs when they are written (the whole history of a
// continued run), else from this run's steps and validations.
func (mo *nnueMonitor) plot() error {
	steps := mo.steps
	if mo.cfg.CSV != "" {
		var err error
		if steps, err = ReadLossCSV(mo.cfg.CSV); err != nil {
			return err
		}
	}
	epochs := mo.rows
	if mo.cfg.EpochCSV != "" {
		var err error
		if epochs, err = ReadEpochCSV(mo.cfg.EpochCSV); err != nil {
			return err
		}
	}
	return PlotCurves(mo.cfg.Plot, steps, epochs, 50)
}

// keepBest writes the run's last model to OUT.last and the model of the lowest validation loss
// to OUT (NNUEConfig.BestVal), and returns the latter.
func keepBest(cfg *NNUEConfig, last, best *nnue.Model, lg *log.Logger) (*nnue.Model, error) {
	lastPath := cfg.Out + ".last"
	if err := last.Save(lastPath); err != nil {
		return nil, err
	}
	if err := best.Save(cfg.Out); err != nil {
		return nil, err
	}
	lg.Printf("wrote %s (step %d, the lowest validation loss) and %s (step %d, the last)", cfg.Out, best.Step, lastPath, last.Step)
	return best, nil
}
