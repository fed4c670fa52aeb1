# Colony's cluster image (docs/cluster.md): static binaries in /colony, run as a non-root user.
# The nets under models/ are embedded into the binaries by go:embed, as in every build.
#
#	docker build -t colony:latest .
#
# Stage 1: build every command the manifests in deploy/k8s run, statically (no cgo).
FROM golang:1.26 AS build
WORKDIR /src
COPY go.mod go.sum ./
RUN go mod download
COPY . .
RUN CGO_ENABLED=0 GOOS=linux go build -trimpath -ldflags="-s -w" -o /out/ \
	./cmd/selfplay ./cmd/train ./cmd/trainnnue ./cmd/cluster ./cmd/agent ./cmd/loop

# Stage 2: nothing but the binaries and CA certificates, user 65532 (nonroot).
FROM gcr.io/distroless/static-debian12:nonroot
COPY --from=build /out/ /colony/
USER 65532:65532
WORKDIR /work
ENTRYPOINT ["/colony/cluster"]
