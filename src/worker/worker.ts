// The worker entry: exposes the engine host over comlink, then says it is ready.
import { expose } from 'comlink';
import { installErrorTransfer } from '../rpc/error-transfer.js';
import { READY } from '../rpc/worker-protocol.js';
import { EngineHost } from './engine-host.js';

installErrorTransfer();
expose(new EngineHost());
self.postMessage(READY);
