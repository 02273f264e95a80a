// SPDX-License-Identifier: AGPL-3.0-or-later
import { render } from "preact";
import { App } from "./app";
import { Root } from "./ui/Root";
import "./style.css";

const app = new App();
(window as unknown as { casaApp: App }).casaApp = app;
render(<Root app={app} />, document.getElementById("app")!);
app.start();
