export { CHAR_BITS, CHAR_EOM, CHAR_EOP, charName, isData, isEnd } from './chars.ts';
export { DEFAULT_DSLINK, checkDsLinkConfig, nsToCycles, timing, type DsLinkConfig, type DsLinkTiming, type LinkStartMode } from './config.ts';
export { DsLinkEnd } from './end.ts';
export { attachCore, joinLinks, type DsLinkEndPorts, type LinkCoreSide } from './ports.ts';
export { DsLinkPair, type DsLinkPairOptions } from './pair.ts';
export { DsWireFault } from './wire_fault.ts';
export { LINK_ERRORS, LINK_STATES, S_ERR_BASE, S_RUN, type LinkErrorKind, type LinkStateName } from './link_fsm.ts';
export { TOKEN_NAMES } from './tokens.ts';
