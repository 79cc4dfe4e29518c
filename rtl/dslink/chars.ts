/**
 * The DS-link's "normal characters" as a chip core sees them, and the port
 * contract of one link end. Shared by the DS-link (rtl/dslink), the T9000
 * endpoint (rtl/t9000) and the C104 switch (rtl/c104), so that each can be
 * built and tested against the same boundary.
 *
 * Readings: docs/dslink.md (token layer, seed 004 §3.1.1.2 and spec §16 V2–V5).
 *
 * A normal character is what occupies one place in a link's transmit or
 * receive buffer and what one FCT credit covers (spec §16 V5): a data byte,
 * an end-of-packet or an end-of-message. FCT, ESC and NULL never reach the
 * core: the link's token layer makes and consumes them.
 *
 * Encoding on the core side: a 9-bit value.
 *   0x000..0x0ff  data token carrying that byte
 *   0x100         EOP  (end of packet)
 *   0x101         EOM  (end of message: ends the last packet of a message)
 *
 * Port contract of one link end (a module `DsLinkEnd`, rtl/dslink/):
 *   wires      dOut, sOut (outputs), dIn, sIn (inputs): Data and Strobe of the
 *              two directions. Two ends are joined A.dOut→B.dIn, A.sOut→B.sIn
 *              and the reverse.
 *   transmit   txValid (in), txChar[9] (in), txReady (out, combinational:
 *              the transmit buffer has room). A character is taken at the
 *              clock edge where txValid and txReady are both 1.
 *   receive    rxValid (out: the receive buffer holds a character),
 *              rxChar[9] (out: the oldest one, combinational), rxPop (in):
 *              the character is removed at the clock edge where rxPop is 1
 *              (rxPop while rxValid is 0 is a protocol error of the core).
 *              Freeing receive buffer places is what earns the far end new
 *              credit (one FCT per 8 places).
 *   status     running (out: the link state machine is in Run).
 */
export const CHAR_EOP = 0x100;
export const CHAR_EOM = 0x101;
/** Width of a character on the core side. */
export const CHAR_BITS = 9;

export function isData(ch: number): boolean {
  return ch >= 0 && ch <= 0xff;
}

export function isEnd(ch: number): boolean {
  return ch === CHAR_EOP || ch === CHAR_EOM;
}

/** A character as a person reads it: "D 0x41", "EOP", "EOM". */
export function charName(ch: number): string {
  if (ch === CHAR_EOP) return 'EOP';
  if (ch === CHAR_EOM) return 'EOM';
  if (isData(ch)) return `D 0x${ch.toString(16).padStart(2, '0')}`;
  return `?${ch}`;
}
