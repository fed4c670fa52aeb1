// Package kube turns Colony's typed cluster configuration (Config) into Kubernetes manifests
// with the k8s.io/api types (Manifests, Write), decodes them strictly (Decode), and runs their
// pods as local processes (Local). It is apart from package cluster so that the commands that
// only talk to a store (selfplay, train, trainnnue) do not link the Kubernetes types.
package kube

import (
	"bytes"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	batchv1 "k8s.io/api/batch/v1"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"sigs.k8s.io/yaml"

	"colony/cluster"
	"colony/pipeline"
)

// Config is Colony's typed cluster configuration: Manifests turns it into Kubernetes objects.
type Config struct {
	Name      string `json:"name"`      // prefix of the objects' names
	Namespace string `json:"namespace"` // "" for the default
	Image     string `json:"image"`     // the image of Dockerfile (binaries in /colony)
	Game      string `json:"game"`
	Store     string `json:"store"`    // the run's store URL: s3://bucket/run1
	Endpoint  string `json:"endpoint"` // AWS_ENDPOINT_URL ("" for AWS S3)
	Secret    string `json:"secret"`   // Secret with AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY

	Workers     int `json:"workers"`      // pods of the self-play Indexed Job
	WorkerGames int `json:"worker_games"` // games per pod (0: WorkerDuration)
	// WorkerDuration stops a pod starting games after this long ("0s": only WorkerGames).
	WorkerDuration string `json:"worker_duration"`
	WorkerThreads  int    `json:"worker_threads"` // self-play workers per pod (one core each)
	Playouts       int    `json:"playouts"`
	PerShard       int    `json:"per_shard"` // examples per shard
	WorkerCPU      string `json:"worker_cpu"`
	WorkerMemory   string `json:"worker_memory"`
	// Deadline is how long a pod may run before Kubernetes ends it as hung (seconds); the
	// Job then starts another pod for its index.
	Deadline int64 `json:"deadline_seconds"`

	Init          string `json:"init"` // the first best net of a new run (a file in the image, or random:BxC)
	TrainSteps    int    `json:"train_steps"`
	GateGames     int    `json:"gate_games"`
	GatePlayouts  int    `json:"gate_playouts"`
	Promote       string `json:"promote"` // the gate's promotion score, 0..1
	MinShards     int    `json:"min_shards"`
	TrainerCPU    string `json:"trainer_cpu"`
	TrainerMemory string `json:"trainer_memory"`
	// Schedule, when set, makes the trainer a CronJob (a generation each time); else a Job.
	Schedule string `json:"schedule"`

	// NNUE makes the manifests the NNUE cycle's: the data Job runs the shipped engine's data
	// generation (selfplay -bootstrap -engine nnab) with the settings below, a gate Job of
	// GateWorkers pods plays the SPRT's pairs (cluster gate-worker), and the trainer runs
	// cluster cycle -nnue.
	NNUE        bool   `json:"nnue"`
	NNUEInit    string `json:"nnue_init"` // the first best net: a .nnue file in the image, random:LANES, or "" (the embedded net)
	Nodes       int64  `json:"nodes"`     // the data's hard node budget per move
	SoftNodes   int64  `json:"soft_nodes"`
	HashMB      int    `json:"hash_mb"`
	RandomPlies string `json:"random_plies"` // MIN..MAX random opening plies of the data
	OpeningMax  int    `json:"opening_max_score"`
	AdjScore    int    `json:"adjudicate_score"`
	AdjPlies    int    `json:"adjudicate_plies"`
	ScoreWeight string `json:"score_weight"`
	LR          string `json:"lr"`
	KeepBest    int    `json:"keep_best"`
	GateWorkers int    `json:"gate_workers"` // pods of the gate's Indexed Job
	SPRT        string `json:"sprt"`         // elo0,elo1[,alpha,beta] over pairs
	GateNodes   int64  `json:"gate_nodes"`   // per gate move (0: GateClock)
	GateClock   string `json:"gate_clock"`   // each side's clock for a gate game, with GateNodes 0
	MaxPairs    int    `json:"max_pairs"`
	GateCPU     string `json:"gate_cpu"`
	GateMemory  string `json:"gate_memory"`
}

// DefaultConfig is the configuration of the manifests in deploy/k8s. Its NNUE data settings
// and the gate's SPRT and node budget are the single-machine cycle's (pipeline.DefaultNNUE),
// so that a run moves between one box and a cluster unchanged.
func DefaultConfig() Config {
	c := Config{Name: "colony", Image: "colony:latest", Game: "bacteria-war", Store: "s3://colony/run1",
		Endpoint: "", Secret: "colony-s3", Workers: 8, WorkerGames: 200, WorkerDuration: "0s", WorkerThreads: 1, Playouts: 200, PerShard: 4096,
		WorkerCPU: "1", WorkerMemory: "1Gi", Deadline: 6 * 3600, Init: "random:4x32", TrainSteps: 1000, GateGames: 40, GatePlayouts: 200, Promote: "0.55",
		MinShards: 8, TrainerCPU: "2", TrainerMemory: "4Gi",
		LR: "0.002", KeepBest: 2, GateWorkers: 8, GateClock: "10s", MaxPairs: 2000,
		GateCPU: "1", GateMemory: "1Gi"}
	n := pipeline.DefaultNNUE()
	c.Nodes, c.SoftNodes, c.HashMB = n.Nodes, n.SoftNodes, n.HashMB
	c.RandomPlies = fmt.Sprintf("%d..%d", n.RandomPlies, n.RandomPliesMax)
	c.OpeningMax, c.AdjScore, c.AdjPlies = int(n.OpeningMax), int(n.AdjScore), n.AdjPlies
	c.ScoreWeight = strconv.FormatFloat(n.ScoreWeight, 'g', -1, 64)
	c.SPRT, c.GateNodes = n.SPRT, n.SPRTNodes
	return c
}

// DefaultNNUEConfig is the configuration of the NNUE cycle's manifests in deploy/k8s-nnue:
// the data pods play 2,000 games each (about 90 positions a game: 8 pods make
// about 350 shards of 4,096), and the trainer starts once 256 of them are in.
func DefaultNNUEConfig() Config {
	c := DefaultConfig()
	c.NNUE, c.WorkerGames, c.MinShards = true, 2000, 256
	return c
}

// Binary directory in the image; Local replaces it with a local one.
const ImageBin = "/colony/"

// Names of the manifest files.
const (
	FileConfigMap = "configmap.yaml"
	FileSelfPlay  = "selfplay-job.yaml"
	FileTrainer   = "trainer.yaml"
	FileGate      = "gate-job.yaml" // the NNUE cycle's gate workers
)

func (c *Config) meta(name string) metav1.ObjectMeta {
	return metav1.ObjectMeta{Name: c.Name + "-" + name, Namespace: c.Namespace,
		Labels: map[string]string{"app.kubernetes.io/name": "colony", "app.kubernetes.io/component": name}}
}

func resources(cpu, mem string) (corev1.ResourceRequirements, error) {
	q := corev1.ResourceList{}
	for name, v := range map[corev1.ResourceName]string{corev1.ResourceCPU: cpu, corev1.ResourceMemory: mem} {
		r, err := resource.ParseQuantity(v)
		if err != nil {
			return corev1.ResourceRequirements{}, fmt.Errorf("cluster: %s %q: %w", name, v, err)
		}
		q[name] = r
	}
	return corev1.ResourceRequirements{Requests: q, Limits: q.DeepCopy()}, nil
}

// env is the containers' environment: the ConfigMap, and the credentials from the Secret.
func (c *Config) env() ([]corev1.EnvFromSource, []corev1.EnvVar) {
	from := []corev1.EnvFromSource{{ConfigMapRef: &corev1.ConfigMapEnvSource{LocalObjectReference: corev1.LocalObjectReference{Name: c.Name + "-config"}}}}
	var vars []corev1.EnvVar
	for _, k := range []string{"AWS_ACCESS_KEY_ID", "AWS_SECRET_ACCESS_KEY"} {
		vars = append(vars, corev1.EnvVar{Name: k, ValueFrom: &corev1.EnvVarSource{SecretKeyRef: &corev1.SecretKeySelector{
			LocalObjectReference: corev1.LocalObjectReference{Name: c.Secret}, Key: k}}})
	}
	return from, vars
}

func nonRoot() *corev1.PodSecurityContext {
	yes, uid := true, int64(65532)
	return &corev1.PodSecurityContext{RunAsNonRoot: &yes, RunAsUser: &uid, RunAsGroup: &uid, FSGroup: &uid}
}

func scratch(name, mount string) (corev1.Volume, corev1.VolumeMount) {
	return corev1.Volume{Name: name, VolumeSource: corev1.VolumeSource{EmptyDir: &corev1.EmptyDirVolumeSource{}}},
		corev1.VolumeMount{Name: name, MountPath: mount}
}

// Manifests returns the objects: the ConfigMap, the self-play Indexed Job, and the trainer's
// Job (or CronJob), by file name.
func (c Config) Manifests() (map[string]any, error) {
	if d, err := time.ParseDuration(c.WorkerDuration); err != nil || d < 0 || (d == 0 && c.WorkerGames < 1) {
		return nil, fmt.Errorf("cluster: worker games %d, duration %q: want games or a duration", c.WorkerGames, c.WorkerDuration)
	}
	if c.Workers < 1 || c.WorkerThreads < 1 || c.Deadline < 1 {
		return nil, fmt.Errorf("cluster: workers %d, threads %d, deadline %d s: want at least 1 each", c.Workers, c.WorkerThreads, c.Deadline)
	}
	data := map[string]string{
		"COLONY_GAME": c.Game, "COLONY_STORE": c.Store, "AWS_ENDPOINT_URL": c.Endpoint,
		"COLONY_WORKER_GAMES": strconv.Itoa(c.WorkerGames), "COLONY_WORKER_DURATION": c.WorkerDuration, "COLONY_WORKER_THREADS": strconv.Itoa(c.WorkerThreads),
		"COLONY_TRAIN_STEPS": strconv.Itoa(c.TrainSteps), "COLONY_MIN_SHARDS": strconv.Itoa(c.MinShards), "COLONY_PER_SHARD": strconv.Itoa(c.PerShard),
	}
	if c.NNUE {
		lo, hi, ok := strings.Cut(c.RandomPlies, "..")
		if !ok {
			return nil, fmt.Errorf("cluster: random plies %q: want MIN..MAX", c.RandomPlies)
		}
		if c.GateWorkers < 1 {
			return nil, fmt.Errorf("cluster: gate workers %d: want at least 1", c.GateWorkers)
		}
		for k, v := range map[string]string{"COLONY_INIT": c.NNUEInit, "COLONY_NODES": fmt.Sprint(c.Nodes), "COLONY_SOFT_NODES": fmt.Sprint(c.SoftNodes),
			"COLONY_HASH": strconv.Itoa(c.HashMB), "COLONY_RANDOM_PLIES": lo, "COLONY_RANDOM_PLIES_MAX": hi,
			"COLONY_OPENING_MAX": strconv.Itoa(c.OpeningMax), "COLONY_ADJ_SCORE": strconv.Itoa(c.AdjScore), "COLONY_ADJ_PLIES": strconv.Itoa(c.AdjPlies),
			"COLONY_SCORE_WEIGHT": c.ScoreWeight, "COLONY_LR": c.LR, "COLONY_KEEP_BEST": strconv.Itoa(c.KeepBest), "COLONY_SPRT": c.SPRT,
			"COLONY_GATE_NODES": fmt.Sprint(c.GateNodes), "COLONY_GATE_CLOCK": c.GateClock, "COLONY_MAX_PAIRS": strconv.Itoa(c.MaxPairs),
			"COLONY_GATE_WAIT": fmt.Sprintf("%ds", c.Deadline)} {
			data[k] = v
		}
	} else {
		for k, v := range map[string]string{"COLONY_PLAYOUTS": strconv.Itoa(c.Playouts), "COLONY_INIT": c.Init,
			"COLONY_GATE_GAMES": strconv.Itoa(c.GateGames), "COLONY_GATE_PLAYOUTS": strconv.Itoa(c.GatePlayouts), "COLONY_PROMOTE": c.Promote} {
			data[k] = v
		}
	}
	cm := &corev1.ConfigMap{TypeMeta: metav1.TypeMeta{APIVersion: "v1", Kind: "ConfigMap"}, ObjectMeta: c.meta("config"), Data: data}
	from, vars := c.env()
	wres, err := resources(c.WorkerCPU, c.WorkerMemory)
	if err != nil {
		return nil, err
	}
	tres, err := resources(c.TrainerCPU, c.TrainerMemory)
	if err != nil {
		return nil, err
	}
	// Kubernetes sets JOB_COMPLETION_INDEX in an Indexed Job's pods; it is spelled out here
	// (from the pod's annotation, as the Job controller does) so that the arguments may use it.
	index := corev1.EnvVar{Name: cluster.EnvIndex, ValueFrom: &corev1.EnvVarSource{FieldRef: &corev1.ObjectFieldSelector{
		FieldPath: "metadata.annotations['batch.kubernetes.io/job-completion-index']"}}}
	spoolVol, spoolMount := scratch("spool", "/spool")
	backoff := int32(c.Workers * 4)
	playArgs := []string{"-game", "$(COLONY_GAME)", "-model", "$(COLONY_STORE)/best.model", "-out", "$(COLONY_STORE)/shards",
		"-index", "$(JOB_COMPLETION_INDEX)", "-games", "$(COLONY_WORKER_GAMES)", "-duration", "$(COLONY_WORKER_DURATION)",
		"-workers", "$(COLONY_WORKER_THREADS)", "-playouts", "$(COLONY_PLAYOUTS)", "-per-shard", "$(COLONY_PER_SHARD)", "-spool", "/spool"}
	trainArgs := []string{"cycle", "-game", "$(COLONY_GAME)", "-run", "$(COLONY_STORE)", "-init", "$(COLONY_INIT)",
		"-generations", "1", "-train-steps", "$(COLONY_TRAIN_STEPS)", "-gate-games", "$(COLONY_GATE_GAMES)",
		"-gate-playouts", "$(COLONY_GATE_PLAYOUTS)", "-promote", "$(COLONY_PROMOTE)", "-min-shards", "$(COLONY_MIN_SHARDS)", "-work", "/work"}
	if c.NNUE {
		// The shipped engine's data generation (as loop -nnue plays it), and its trainer.
		playArgs = []string{"-game", "$(COLONY_GAME)", "-bootstrap", "-engine", "nnab", "-model", "$(COLONY_STORE)/best.nnue",
			"-out", "$(COLONY_STORE)/shards", "-index", "$(JOB_COMPLETION_INDEX)", "-games", "$(COLONY_WORKER_GAMES)",
			"-duration", "$(COLONY_WORKER_DURATION)", "-workers", "$(COLONY_WORKER_THREADS)", "-depth", "0",
			"-nodes", "$(COLONY_NODES)", "-soft-nodes", "$(COLONY_SOFT_NODES)", "-hash", "$(COLONY_HASH)",
			"-random-plies", "$(COLONY_RANDOM_PLIES)", "-random-plies-max", "$(COLONY_RANDOM_PLIES_MAX)", "-epsilon", "0",
			"-opening-max-score", "$(COLONY_OPENING_MAX)", "-adjudicate-score", "$(COLONY_ADJ_SCORE)", "-adjudicate-plies", "$(COLONY_ADJ_PLIES)",
			"-scores", "-per-shard", "$(COLONY_PER_SHARD)", "-spool", "/spool"}
		trainArgs = []string{"cycle", "-nnue", "-game", "$(COLONY_GAME)", "-run", "$(COLONY_STORE)", "-init", "$(COLONY_INIT)",
			"-generations", "1", "-train-steps", "$(COLONY_TRAIN_STEPS)", "-lr", "$(COLONY_LR)", "-score-weight", "$(COLONY_SCORE_WEIGHT)",
			"-nodes", "$(COLONY_NODES)", "-soft-nodes", "$(COLONY_SOFT_NODES)", "-keep-best", "$(COLONY_KEEP_BEST)",
			"-sprt", "$(COLONY_SPRT)", "-gate-nodes", "$(COLONY_GATE_NODES)", "-gate-clock", "$(COLONY_GATE_CLOCK)",
			"-max-pairs", "$(COLONY_MAX_PAIRS)", "-min-shards", "$(COLONY_MIN_SHARDS)", "-work", "/work"}
	}
	selfplay := c.indexedJob("selfplay", c.Workers, backoff, spoolVol, corev1.Container{Name: "selfplay", Image: c.Image,
		Command: []string{ImageBin + "selfplay"}, Args: playArgs, EnvFrom: from, Env: append([]corev1.EnvVar{index}, vars...),
		Resources: wres, VolumeMounts: []corev1.VolumeMount{spoolMount}})
	workVol, workMount := scratch("work", "/work")
	one := int32(1)
	podSpec := corev1.PodSpec{RestartPolicy: corev1.RestartPolicyOnFailure, SecurityContext: nonRoot(),
		ActiveDeadlineSeconds: &c.Deadline, Volumes: []corev1.Volume{workVol},
		Containers: []corev1.Container{{Name: "trainer", Image: c.Image, Command: []string{ImageBin + "cluster"},
			Args: trainArgs, EnvFrom: from, Env: vars, Resources: tres, VolumeMounts: []corev1.VolumeMount{workMount}}}}
	jobSpec := batchv1.JobSpec{Completions: &one, BackoffLimit: &backoff,
		Template: corev1.PodTemplateSpec{ObjectMeta: metav1.ObjectMeta{Labels: c.meta("trainer").Labels}, Spec: podSpec}}
	var trainer any = &batchv1.Job{TypeMeta: metav1.TypeMeta{APIVersion: "batch/v1", Kind: "Job"}, ObjectMeta: c.meta("trainer"), Spec: jobSpec}
	if c.Schedule != "" {
		trainer = &batchv1.CronJob{TypeMeta: metav1.TypeMeta{APIVersion: "batch/v1", Kind: "CronJob"}, ObjectMeta: c.meta("trainer"),
			Spec: batchv1.CronJobSpec{Schedule: c.Schedule, ConcurrencyPolicy: batchv1.ForbidConcurrent,
				JobTemplate: batchv1.JobTemplateSpec{Spec: jobSpec}}}
	}
	out := map[string]any{FileConfigMap: cm, FileSelfPlay: selfplay, FileTrainer: trainer}
	if c.NNUE {
		gres, err := resources(c.GateCPU, c.GateMemory)
		if err != nil {
			return nil, err
		}
		out[FileGate] = c.indexedJob("gate", c.GateWorkers, int32(c.GateWorkers*4), workVol, corev1.Container{Name: "gate", Image: c.Image,
			Command: []string{ImageBin + "cluster"},
			Args: []string{"gate-worker", "-game", "$(COLONY_GAME)", "-run", "$(COLONY_STORE)", "-index", "$(JOB_COMPLETION_INDEX)",
				"-wait", "$(COLONY_GATE_WAIT)", "-work", "/work"},
			EnvFrom: from, Env: append([]corev1.EnvVar{index}, vars...), Resources: gres, VolumeMounts: []corev1.VolumeMount{workMount}})
	}
	return out, nil
}

// indexedJob is an Indexed Job of n pods named name running container with volume vol.
func (c Config) indexedJob(name string, n int, backoff int32, vol corev1.Volume, container corev1.Container) *batchv1.Job {
	pods, indexed := int32(n), batchv1.IndexedCompletion
	return &batchv1.Job{TypeMeta: metav1.TypeMeta{APIVersion: "batch/v1", Kind: "Job"}, ObjectMeta: c.meta(name),
		Spec: batchv1.JobSpec{Completions: &pods, Parallelism: &pods, CompletionMode: &indexed, BackoffLimit: &backoff,
			Template: corev1.PodTemplateSpec{ObjectMeta: metav1.ObjectMeta{Labels: c.meta(name).Labels},
				Spec: corev1.PodSpec{RestartPolicy: corev1.RestartPolicyOnFailure, SecurityContext: nonRoot(),
					ActiveDeadlineSeconds: &c.Deadline, Volumes: []corev1.Volume{vol}, Containers: []corev1.Container{container}}}}}
}

// header starts every generated file.
const header = "# Generated by `cluster manifests` from kube.Config (colony/cluster/kube/manifests.go): do not edit.\n"

// Render returns the manifest files' bytes, by name.
func (c Config) Render() (map[string][]byte, error) {
	objs, err := c.Manifests()
	if err != nil {
		return nil, err
	}
	out := map[string][]byte{}
	for name, o := range objs {
		b, err := yaml.Marshal(o)
		if err != nil {
			return nil, fmt.Errorf("cluster: %s: %w", name, err)
		}
		out[name] = append([]byte(header), b...)
	}
	return out, nil
}

// Write writes the manifest files into dir.
func (c Config) Write(dir string) ([]string, error) {
	files, err := c.Render()
	if err != nil {
		return nil, err
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, err
	}
	var names []string
	for name, b := range files {
		p := filepath.Join(dir, name)
		if old, err := os.ReadFile(p); err == nil && bytes.Equal(old, b) {
			continue
		}
		if err := os.WriteFile(p, b, 0o644); err != nil {
			return nil, err
		}
		names = append(names, p)
	}
	return names, nil
}

// Decoded is a manifest directory decoded strictly into the Kubernetes types.
type Decoded struct {
	ConfigMap *corev1.ConfigMap
	SelfPlay  *batchv1.Job
	Trainer   *batchv1.Job     // when the trainer is a Job
	Cron      *batchv1.CronJob // when it is a CronJob
	Gate      *batchv1.Job     // the NNUE cycle's gate workers (gate-job.yaml), when there
}

// Decode reads the manifests in dir strictly (an unknown or misspelt field is an error).
func Decode(dir string) (*Decoded, error) {
	d := &Decoded{ConfigMap: &corev1.ConfigMap{}, SelfPlay: &batchv1.Job{}}
	read := func(name string, v any) error {
		b, err := os.ReadFile(filepath.Join(dir, name))
		if err != nil {
			return err
		}
		if err := yaml.UnmarshalStrict(b, v); err != nil {
			return fmt.Errorf("cluster: %s: %w", name, err)
		}
		return nil
	}
	if err := read(FileConfigMap, d.ConfigMap); err != nil {
		return nil, err
	}
	if err := read(FileSelfPlay, d.SelfPlay); err != nil {
		return nil, err
	}
	var kind metav1.TypeMeta
	b, err := os.ReadFile(filepath.Join(dir, FileTrainer))
	if err != nil {
		return nil, err
	}
	if err := yaml.Unmarshal(b, &kind); err != nil {
		return nil, fmt.Errorf("cluster: %s: %w", FileTrainer, err)
	}
	switch kind.Kind {
	case "Job":
		d.Trainer = &batchv1.Job{}
		err = read(FileTrainer, d.Trainer)
	case "CronJob":
		d.Cron = &batchv1.CronJob{}
		err = read(FileTrainer, d.Cron)
	default:
		err = fmt.Errorf("cluster: %s: kind %q, want Job or CronJob", FileTrainer, kind.Kind)
	}
	if err != nil {
		return nil, err
	}
	if _, err := os.Stat(filepath.Join(dir, FileGate)); err == nil {
		d.Gate = &batchv1.Job{}
		if err := read(FileGate, d.Gate); err != nil {
			return nil, err
		}
	}
	for name, j := range map[string]*batchv1.Job{FileSelfPlay: d.SelfPlay, FileGate: d.Gate} {
		if j == nil {
			continue
		}
		if k := j.Spec.CompletionMode; k == nil || *k != batchv1.IndexedCompletion {
			return nil, fmt.Errorf("cluster: %s is not an Indexed Job", name)
		}
	}
	return d, nil
}

// Flags binds the configuration's fields to command-line flags (defaults: c's values).
func (c *Config) Flags(fs *flag.FlagSet) {
	fs.StringVar(&c.Name, "name", c.Name, "prefix of the Kubernetes objects' names")
	fs.StringVar(&c.Namespace, "namespace", c.Namespace, "namespace (\"\": the default)")
	fs.StringVar(&c.Image, "image", c.Image, "container image (Dockerfile)")
	fs.StringVar(&c.Game, "game", c.Game, "game")
	fs.StringVar(&c.Store, "store", c.Store, "the run's store URL")
	fs.StringVar(&c.Endpoint, "endpoint", c.Endpoint, "S3 endpoint URL (AWS_ENDPOINT_URL; \"\": AWS)")
	fs.StringVar(&c.Secret, "secret", c.Secret, "Secret holding AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY")
	fs.IntVar(&c.Workers, "workers", c.Workers, "self-play pods (the Indexed Job's completions and parallelism)")
	fs.IntVar(&c.WorkerGames, "worker-games", c.WorkerGames, "games per self-play pod (0: -worker-duration)")
	fs.StringVar(&c.WorkerDuration, "worker-duration", c.WorkerDuration, "a self-play pod starts no game after this long (0s: -worker-games only)")
	fs.IntVar(&c.WorkerThreads, "worker-threads", c.WorkerThreads, "self-play workers per pod (a core each)")
	fs.IntVar(&c.Playouts, "playouts", c.Playouts, "playouts per self-play move")
	fs.IntVar(&c.PerShard, "per-shard", c.PerShard, "examples per shard")
	fs.StringVar(&c.WorkerCPU, "worker-cpu", c.WorkerCPU, "CPU request and limit of a self-play pod")
	fs.StringVar(&c.WorkerMemory, "worker-memory", c.WorkerMemory, "memory request and limit of a self-play pod")
	fs.Int64Var(&c.Deadline, "deadline", c.Deadline, "seconds a pod may run before Kubernetes ends it as hung")
	fs.StringVar(&c.Init, "init", c.Init, "first best net of a new run (file in the image, or random:BxC)")
	fs.IntVar(&c.TrainSteps, "train-steps", c.TrainSteps, "training steps per generation")
	fs.IntVar(&c.GateGames, "gate-games", c.GateGames, "gating games per generation")
	fs.IntVar(&c.GatePlayouts, "gate-playouts", c.GatePlayouts, "playouts per gating move")
	fs.StringVar(&c.Promote, "promote", c.Promote, "the gate promotes at this score (0..1) or more")
	fs.IntVar(&c.MinShards, "min-shards", c.MinShards, "new shards a generation waits for")
	fs.StringVar(&c.TrainerCPU, "trainer-cpu", c.TrainerCPU, "CPU request and limit of the trainer")
	fs.StringVar(&c.TrainerMemory, "trainer-memory", c.TrainerMemory, "memory request and limit of the trainer")
	fs.StringVar(&c.Schedule, "schedule", c.Schedule, "cron schedule: the trainer becomes a CronJob (\"\": a Job)")
	fs.BoolVar(&c.NNUE, "nnue", c.NNUE, "the NNUE cycle: nnab data Job, gate Job, cluster cycle -nnue (the flags below)")
	fs.StringVar(&c.NNUEInit, "nnue-init", c.NNUEInit, "with -nnue: the first best net (a .nnue file in the image, random:LANES, \"\": the embedded net)")
	fs.Int64Var(&c.Nodes, "nodes", c.Nodes, "with -nnue: hard node budget per data move")
	fs.Int64Var(&c.SoftNodes, "soft-nodes", c.SoftNodes, "with -nnue: soft node budget per data move")
	fs.IntVar(&c.HashMB, "hash", c.HashMB, "with -nnue: the data engine's table in MB")
	fs.StringVar(&c.RandomPlies, "random-plies", c.RandomPlies, "with -nnue: MIN..MAX random opening plies of the data")
	fs.IntVar(&c.OpeningMax, "opening-max-score", c.OpeningMax, "with -nnue: drop openings scored beyond ± this")
	fs.IntVar(&c.AdjScore, "adjudicate-score", c.AdjScore, "with -nnue: adjudicate data games beyond ± this")
	fs.IntVar(&c.AdjPlies, "adjudicate-plies", c.AdjPlies, "with -nnue: for this many searches in a row")
	fs.StringVar(&c.ScoreWeight, "score-weight", c.ScoreWeight, "with -nnue: the training target's weight of the search score")
	fs.StringVar(&c.LR, "lr", c.LR, "with -nnue: the trainer's learning rate")
	fs.IntVar(&c.KeepBest, "keep-best", c.KeepBest, "with -nnue: shards of the latest this many best nets are taken")
	fs.IntVar(&c.GateWorkers, "gate-workers", c.GateWorkers, "with -nnue: pods of the gate's Indexed Job")
	fs.StringVar(&c.SPRT, "sprt", c.SPRT, "with -nnue: the gate's SPRT over pairs, elo0,elo1[,alpha,beta]")
	fs.Int64Var(&c.GateNodes, "gate-nodes", c.GateNodes, "with -nnue: nodes per gate move (0: -gate-clock)")
	fs.StringVar(&c.GateClock, "gate-clock", c.GateClock, "with -nnue and -gate-nodes 0: each side's clock for a gate game")
	fs.IntVar(&c.MaxPairs, "max-pairs", c.MaxPairs, "with -nnue: an undecided SPRT stops after this many pairs")
	fs.StringVar(&c.GateCPU, "gate-cpu", c.GateCPU, "with -nnue: CPU request and limit of a gate pod")
	fs.StringVar(&c.GateMemory, "gate-memory", c.GateMemory, "with -nnue: memory request and limit of a gate pod")
}

// NNUEDefaults gives a configuration made -nnue by its flags (Flags, parsed in fs) the NNUE
// defaults (DefaultNNUEConfig) of the settings whose flags were not given.
func (c *Config) NNUEDefaults(fs *flag.FlagSet) {
	if !c.NNUE {
		return
	}
	d := DefaultNNUEConfig()
	set := map[string]bool{}
	fs.Visit(func(f *flag.Flag) { set[f.Name] = true })
	if !set["worker-games"] {
		c.WorkerGames = d.WorkerGames
	}
	if !set["min-shards"] {
		c.MinShards = d.MinShards
	}
}
