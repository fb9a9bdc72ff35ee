// The shell consumes no shared module (ADR 017), so it needs no async boundary: one round trip less
// before the first render.
import './bootstrap';
