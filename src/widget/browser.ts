/**
 * Entry of the browser bundle `dist/widget/svc-widget.js` (an IIFE for a `<script>` tag),
 * built by scripts/build-widget.js. It installs the double on `window` at once:
 *
 *   <script>window.svc_widget_options = { safeUrl: true };</script>
 *   <script src="svc-widget.js" data-online="false" data-callback="disabled"></script>
 *
 * then `window.svc_api` is the spec 4.5 API and `window.svc_widget` the test driver.
 */
import { installFromPage } from './browser-install.js';

installFromPage(window);
