/**
 * Constants of the token-credit link model (token-network.ts,
 * docs/thesis-model.md#token-credit): its event codes, the RTL-measured
 * constants the seed does not give, and the kinds of link direction.
 */
/** Event codes of this transport (below ENDPOINT_EVENT_BASE, apart from core.ts's). */
export const EV_TOK_TX = 10; // arg: direction — its transmitter finished a token
export const EV_TOK_ARRIVE = 11; // arg: direction — the oldest token in flight reached the receiver
export const EV_TOK_ROUTE = 12; // arg: direction (a C104 input) — its head packet's header is routed
export const EV_TOK_XBAR = 13; // arg: direction (a C104 input) — the crossbar moves its next token
export const EV_TOK_PORT = 14; // arg: injection direction — its T9000 transmit port starts copying a packet
export const EV_TOK_FCT = 15; // arg: direction — an FCT reached the receiver
export const EV_TOK_TAKE = 16; // arg: direction — its idle transmitter reaches a NULL boundary with a token to send

/**
 * Constants of the token-credit mode that the seed does not give, measured
 * on the RTL at zero load (docs/thesis-model.md#token-credit, fitted by
 * test/tlm/token-credit.test.ts against harness/rtl/c104_system.ts).
 */
export const TOKEN_CREDIT_RTL = Object.freeze({
  /** Bit times from a token's last bit to the receiver taking it (C104 input buffer or router, T9000 receive port: the next token's parity check); FCTs too. */
  rxLatencyBits: 6,
  /** Bit times from the header taken by the C104 input's router to its crossbar request, beyond the routing delay (the router's register, ROUTE state and request register, rtl/c104/input_router.ts). */
  lookupBits: 4,
  /** Bit times from a crossbar grant to the first token in the output buffer (the output register). */
  crossbarBits: 0,
  /** Bit times from a packet taken from the T9000 queue to its first token in the link's transmit buffer (the transmit port offers it in the same cycle). */
  txStartBits: 0,
  /** T9000 / C104 transmit and receive buffers, tokens (rtl/dslink DEFAULT_DSLINK 56; the C104's from its buffer preset). */
  endpointBufferTokens: 56,
  /** Credit cap of a DS-link (rtl/dslink: 56). */
  creditCap: 56,
  /** Bit times from every link's first NULL to time 0, when traffic starts (the RTL's start-up takes it at cycle 1921, traffic at RTL_START_CYCLES 2500). */
  linkStartBits: 579,
  /** Bits of a NULL (ESC + FCT). */
  nullBits: 8,
});

/** Token index of the first random-header token (two-phase); a packet's own tokens are 0..tokens−1 < 60. */
export const PFX = 60;

export const INJ = 0; // T9000 → C104
export const DEL = 1; // C104 → T9000
export const INT = 2; // C104 → C104
export const LOOP = 3; // two-phase: a C104's phase-1 "local" link cabled back to its own header-deleting input (and the FCT direction back)
