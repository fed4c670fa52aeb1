// Package nn holds Colony's policy/value network: the model file and a pure-Go forward pass.
package nn

// BNEps is the BatchNorm epsilon used by the trainer and at folding time.
const BNEps = 1e-5

// Arch describes a residual policy/value convnet:
//
//	stem:   conv3x3(Planes -> Channels) + BN + ReLU
//	blocks: Blocks x [conv3x3 + BN + ReLU, conv3x3 + BN, + skip, ReLU]
//	policy: conv1x1(Channels -> PolicyChannels) + BN + ReLU, dense(PolicyChannels*H*W -> PolicySize) = logits
//	value:  conv1x1(Channels -> ValueChannels) + BN + ReLU, dense(ValueChannels*H*W -> ValueHidden) + ReLU,
//	        dense(ValueHidden -> NumPlayers) + tanh = one value per player
//
// Tensors are NCHW float32.
type Arch struct {
	Game           string `json:"game"`
	EncoderVersion int    `json:"encoder_version"`
	Planes         int    `json:"planes"`
	Height         int    `json:"height"`
	Width          int    `json:"width"`
	Blocks         int    `json:"blocks"`
	Channels       int    `json:"channels"`
	PolicyChannels int    `json:"policy_channels"`
	PolicySize     int    `json:"policy_size"`
	ValueChannels  int    `json:"value_channels"`
	ValueHidden    int    `json:"value_hidden"`
	NumPlayers     int    `json:"num_players"`
}

// Conv is a bias-free convolution followed by BatchNorm, as trained.
// W is laid out [Out][In][K][K]; the BatchNorm vectors have Out entries. The forward pass folds
// BatchNorm into the convolution at load time.
type Conv struct {
	Out, In, K             int
	W                      []float32
	Gamma, Beta, Mean, Var []float32
}

// Dense is a fully connected layer: y = x W + B with W laid out [In][Out].
type Dense struct {
	In, Out int
	W       []float32
	B       []float32
}

// Weights are the trained parameters of an Arch.
type Weights struct {
	Stem       Conv
	Blocks     [][2]Conv
	PolicyConv Conv
	PolicyFC   Dense
	ValueConv  Conv
	ValueFC1   Dense
	ValueFC2   Dense
}
