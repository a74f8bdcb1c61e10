// The public face re-exports the pattern model (ARCHITECTURE.md: `Thrum` re-exports the model), so
// `import Thrum` is enough to build patterns and play them.
@_exported import ThrumModel
