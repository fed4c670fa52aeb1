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
	"time"

	batchv1 "k8s.io/api/batch/v1"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"sigs.k8s.io/yaml"

	"colony/cluster"
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
}

// DefaultConfig is the configuration of the manifests in deploy/k8s.
func DefaultConfig() Config {
	return Config{Name: "colony", Image: "colony:latest", Game: "bacteria-war", Store: "s3://colony/run1",
		Endpoint: "", Secret: "colony-s3", Workers: 8, WorkerGames: 200, WorkerDuration: "0s", WorkerThreads: 1, Playouts: 200, PerShard: 4096,
		WorkerCPU: "1", WorkerMemory: "1Gi", Deadline: 6 * 3600, Init: "random:4x32", TrainSteps: 1000, GateGames: 40, GatePlayouts: 200, Promote: "0.55",
		MinShards: 8, TrainerCPU: "2", TrainerMemory: "4Gi"}
}

// Binary directory in the image; Local replaces it with a local one.
const ImageBin = "/colony/"

// Names of the manifest files.
const (
	FileConfigMap = "configmap.yaml"
	FileSelfPlay  = "selfplay-job.yaml"
	FileTrainer   = "trainer.yaml"
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
	cm := &corev1.ConfigMap{TypeMeta: metav1.TypeMeta{APIVersion: "v1", Kind: "ConfigMap"}, ObjectMeta: c.meta("config"),
		Data: map[string]string{
			"COLONY_GAME": c.Game, "COLONY_STORE": c.Store, "AWS_ENDPOINT_URL": c.Endpoint,
			"COLONY_WORKER_GAMES": strconv.Itoa(c.WorkerGames), "COLONY_WORKER_DURATION": c.WorkerDuration, "COLONY_WORKER_THREADS": strconv.Itoa(c.WorkerThreads),
			"COLONY_PLAYOUTS": strconv.Itoa(c.Playouts), "COLONY_INIT": c.Init, "COLONY_TRAIN_STEPS": strconv.Itoa(c.TrainSteps),
			"COLONY_GATE_GAMES": strconv.Itoa(c.GateGames), "COLONY_GATE_PLAYOUTS": strconv.Itoa(c.GatePlayouts),
			"COLONY_MIN_SHARDS": strconv.Itoa(c.MinShards), "COLONY_PER_SHARD": strconv.Itoa(c.PerShard),
			"COLONY_PROMOTE": c.Promote,
		}}
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
	workers, indexed := int32(c.Workers), batchv1.IndexedCompletion
	backoff := int32(c.Workers * 4)
	selfplay := &batchv1.Job{TypeMeta: metav1.TypeMeta{APIVersion: "batch/v1", Kind: "Job"}, ObjectMeta: c.meta("selfplay"),
		Spec: batchv1.JobSpec{Completions: &workers, Parallelism: &workers, CompletionMode: &indexed, BackoffLimit: &backoff,
			Template: corev1.PodTemplateSpec{ObjectMeta: metav1.ObjectMeta{Labels: c.meta("selfplay").Labels},
				Spec: corev1.PodSpec{RestartPolicy: corev1.RestartPolicyOnFailure, SecurityContext: nonRoot(),
					ActiveDeadlineSeconds: &c.Deadline, Volumes: []corev1.Volume{spoolVol},
					Containers: []corev1.Container{{Name: "selfplay", Image: c.Image,
						Command: []string{ImageBin + "selfplay"},
						Args: []string{"-game", "$(COLONY_GAME)", "-model", "$(COLONY_STORE)/best.model", "-out", "$(COLONY_STORE)/shards",
							"-index", "$(JOB_COMPLETION_INDEX)", "-games", "$(COLONY_WORKER_GAMES)", "-duration", "$(COLONY_WORKER_DURATION)",
							"-workers", "$(COLONY_WORKER_THREADS)", "-playouts", "$(COLONY_PLAYOUTS)", "-per-shard", "$(COLONY_PER_SHARD)", "-spool", "/spool"},
						EnvFrom: from, Env: append([]corev1.EnvVar{index}, vars...), Resources: wres,
						VolumeMounts: []corev1.VolumeMount{spoolMount}}}}}}}
	workVol, workMount := scratch("work", "/work")
	one := int32(1)
	podSpec := corev1.PodSpec{RestartPolicy: corev1.RestartPolicyOnFailure, SecurityContext: nonRoot(),
		ActiveDeadlineSeconds: &c.Deadline, Volumes: []corev1.Volume{workVol},
		Containers: []corev1.Container{{Name: "trainer", Image: c.Image, Command: []string{ImageBin + "cluster"},
			Args: []string{"cycle", "-game", "$(COLONY_GAME)", "-run", "$(COLONY_STORE)", "-init", "$(COLONY_INIT)",
				"-generations", "1", "-train-steps", "$(COLONY_TRAIN_STEPS)", "-gate-games", "$(COLONY_GATE_GAMES)",
				"-gate-playouts", "$(COLONY_GATE_PLAYOUTS)", "-promote", "$(COLONY_PROMOTE)", "-min-shards", "$(COLONY_MIN_SHARDS)", "-work", "/work"},
			EnvFrom: from, Env: vars, Resources: tres, VolumeMounts: []corev1.VolumeMount{workMount}}}}
	jobSpec := batchv1.JobSpec{Completions: &one, BackoffLimit: &backoff,
		Template: corev1.PodTemplateSpec{ObjectMeta: metav1.ObjectMeta{Labels: c.meta("trainer").Labels}, Spec: podSpec}}
	var trainer any = &batchv1.Job{TypeMeta: metav1.TypeMeta{APIVersion: "batch/v1", Kind: "Job"}, ObjectMeta: c.meta("trainer"), Spec: jobSpec}
	if c.Schedule != "" {
		trainer = &batchv1.CronJob{TypeMeta: metav1.TypeMeta{APIVersion: "batch/v1", Kind: "CronJob"}, ObjectMeta: c.meta("trainer"),
			Spec: batchv1.CronJobSpec{Schedule: c.Schedule, ConcurrencyPolicy: batchv1.ForbidConcurrent,
				JobTemplate: batchv1.JobTemplateSpec{Spec: jobSpec}}}
	}
	return map[string]any{FileConfigMap: cm, FileSelfPlay: selfplay, FileTrainer: trainer}, nil
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
	if k := d.SelfPlay.Spec.CompletionMode; k == nil || *k != batchv1.IndexedCompletion {
		return nil, fmt.Errorf("cluster: %s is not an Indexed Job", FileSelfPlay)
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
}
