// What the banner says, and the status line's words for where the model stands.
import type { BannerContent } from './ui/banner.js';

export function noWebGpuNotice(reason: string | undefined): BannerContent {
  return {
    text: 'No WebGPU in this browser, so real models cannot run here: you are chatting with a scripted fake model.',
    more: {
      summary: 'Where does WebGPU work?',
      text:
        'In recent Chrome and Edge on Windows, macOS and ChromeOS, Chrome on recent Android phones, recent Safari, and recent Firefox on Windows. ' +
        'Elsewhere it may be behind a flag: chrome://flags, or Chrome started with --enable-unsafe-webgpu. ' +
        `Here: ${reason ?? 'no WebGPU adapter'}.`,
    },
  };
}
