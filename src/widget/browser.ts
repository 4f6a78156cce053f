/**
 * Entry of the browser bundle `dist/widget/svc-widget.js` (an IIFE for a `<script>` tag).
 * It installs the double on `window` at once and exposes the driver as `window.svc_widget`.
 * Options come from `window.svc_widget_options` (an object set before the tag), overridden
 * by the tag's data attributes:
 *
 *   <script src="svc-widget.js" data-online="false" data-callback="disabled"
 *           data-call-balance="0" data-safe-url="true" data-page-origin="https://shop.test"></script>
 */
import { installWidget } from './install.js';
import type { CallbackSetting, WidgetOptions } from './types.js';

const CALLBACK_SETTINGS: readonly string[] = ['enabled', 'disabled', 'unavailable'];

/** Reads the data-* attributes of the loading script tag into widget options. */
export function readDataOptions(dataset: Record<string, string | undefined>): WidgetOptions {
  const options: WidgetOptions = {};
  if (dataset.online !== undefined) options.online = dataset.online !== 'false';
  if (dataset.callback !== undefined && CALLBACK_SETTINGS.includes(dataset.callback)) {
    options.callback = dataset.callback as CallbackSetting;
  }
  if (dataset.callBalance !== undefined && Number.isFinite(Number(dataset.callBalance))) {
    options.callBalance = Number(dataset.callBalance);
  }
  if (dataset.safeUrl !== undefined) options.safeUrl = dataset.safeUrl !== 'false';
  if (dataset.pageOrigin !== undefined) options.pageOrigin = dataset.pageOrigin;
  if (dataset.visitorId !== undefined) options.visitorId = dataset.visitorId;
  return options;
}

function installFromPage(): void {
  const win = window as unknown as Record<string, unknown>;
  const fromWindow = (win.svc_widget_options ?? {}) as WidgetOptions;
  const script = document.currentScript;
  const fromTag = script instanceof HTMLScriptElement ? readDataOptions(script.dataset) : {};
  win.svc_widget = installWidget(window, { ...fromWindow, ...fromTag });
}

installFromPage();
