import { createRoot } from 'react-dom/client';

// Replaced by the workspace UI.
createRoot(document.getElementById('root')!).render(<h1>Pixmill</h1>);
