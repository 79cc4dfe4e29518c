/**
 * A T9000-style endpoint (docs/t9000.md): virtual link control, node
 * memory, and per physical link a transmit port (queues + packetiser), a
 * receive port and a DS-link end. Its boundary to the outside world is the
 * link ends' wires (dOut, sOut, dIn, sIn; rtl/dslink/chars.ts), so a C104
 * link slice or another endpoint connects there.
 *
 * The link end is made by a factory, so the endpoint is built the same way
 * against the real DsLinkEnd (rtl/dslink) or a test stand-in with the same
 * ports (harness/rtl/link_standin.ts).
 *
 *   const ep = new T9000Endpoint(top, 'a', cfg, (p, name) => new DsLinkEnd(p, name, linkCfg));
 *   joinLinks(top, a.links[0], b.links[0]);   // rtl/dslink/ports.ts
 *
 * With `addressing: 'node'` each link also has a side-band lane per
 * direction (rtl/lib/side_band.ts): `tx[k]` carries the tags of the packets
 * link k sends, `rx[k]` those of the packets it receives (the far end's tx
 * lane). docs/t9000.md#addressing.
 */
import { Module } from '../kernel/module.ts';
import { attachCore, type DsLinkEndPorts } from '../dslink/ports.ts';
import { DsLinkEnd } from '../dslink/end.ts';
import { memoryBytes, t9000Config, type T9000Config, type VlcbConfig } from './config.ts';
import { NodeMemory } from './node_memory.ts';
import { RxPort } from './rx_port.ts';
import { TxPort } from './tx_port.ts';
import { VirtualLinkControl } from './vlc.ts';
import type { SideBandLane } from '../lib/side_band.ts';

/** Side-band lanes per link (addressing 'node'). */
export interface EndpointSideBand {
  tx: readonly SideBandLane[];
  rx: readonly SideBandLane[];
}

export type LinkEndFactory = (parent: Module, name: string, index: number) => DsLinkEndPorts;

export class T9000Endpoint extends Module {
  readonly cfg: Readonly<T9000Config>;
  readonly nodeMem: NodeMemory;
  readonly vlc: VirtualLinkControl;
  readonly tx: TxPort[] = [];
  readonly rx: RxPort[] = [];
  readonly links: DsLinkEndPorts[] = [];

  constructor(parent: Module | null, name: string, config: Partial<T9000Config> & { virtualLinks: readonly VlcbConfig[] }, linkEnd: LinkEndFactory, sideBand: EndpointSideBand | null = null) {
    super(parent, name);
    const cfg = (this.cfg = t9000Config(config));
    const L = cfg.links;
    const mem = (this.nodeMem = new NodeMemory(this, 'mem', memoryBytes(cfg), L));
    const vlc = (this.vlc = new VirtualLinkControl(this, 'vlc', cfg));
    for (let k = 0; k < L; k++) {
      const tx = new TxPort(this, `tx${k}`, cfg, sideBand?.tx[k] ?? null);
      const rx = new RxPort(this, `rx${k}`, cfg, sideBand?.rx[k] ?? null);
      const ln = linkEnd(this, `link${k}`, k);
      if (cfg.packetSentAt === 'wire' && !(ln instanceof DsLinkEnd && ln.cfg.txBufferTokens === 1 && !ln.cfg.flowThrough)) {
        throw new RangeError(`t9000 ${name}: packetSentAt 'wire' needs DS-link ends with a 1-character transmit buffer and no flowThrough (link ${k})`);
      }
      this.tx.push(tx);
      this.rx.push(rx);
      this.links.push(ln);
      const vp = vlc.link[k]!;
      // transmit: virtual link control → queues → packetiser → link end;
      // receive: link end → depacketiser → memory and virtual link control
      attachCore(this, { txValid: tx.txValid, txChar: tx.txChar, txReady: tx.txReady, rxValid: rx.rxValid, rxChar: rx.rxChar, rxPop: rx.rxPop }, ln);
      this.connect(vp.ackPush, tx.ackPush);
      this.connect(vp.ackEntry, tx.ackEntry);
      this.connect(vp.ackVl, tx.ackVl);
      this.connect(vp.dataPush, tx.dataPush);
      this.connect(vp.dataEntry, tx.dataEntry);
      this.connect(vp.dataVl, tx.dataVl);
      this.connect(tx.rdAddr, mem.rdAddr[k]!);
      this.connect(mem.rdData[k]!, tx.rdData);
      this.connect(tx.txDone, vp.txDone);
      this.connect(tx.txDoneVl, vp.txDoneVl);
      this.connect(rx.wrEn, mem.wrEn[k]!);
      this.connect(rx.wrAddr, mem.wrAddr[k]!);
      this.connect(rx.wrData, mem.wrData[k]!);
      this.connect(rx.evHdr, vp.evHdr);
      this.connect(rx.evAck, vp.evAck);
      this.connect(rx.evEnd, vp.evEnd);
      this.connect(rx.evEom, vp.evEom);
      this.connect(rx.evLen, vp.evLen);
      this.connect(rx.curVl, vp.rxVl);
      this.connect(vp.rxBase, rx.rxBase);
      this.connect(vp.sendOutstanding, rx.sendOutstanding);
    }
  }
}
