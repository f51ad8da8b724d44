// The baseline page of `npm run bench:web`: one line of text written by one module script of the same
// build, with its stylesheet inlined as the app's is, the least any page of the app can do before its
// largest paint.
import "./blank.css";

const root = document.getElementById("root");
if (root) root.innerHTML = "<h1>Easel</h1><p>A page with nothing to load.</p>";
