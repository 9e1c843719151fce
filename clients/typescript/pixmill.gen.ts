// Generated from the OpenAPI document (src/pages/content/openapi.json) by scripts/api-client.ts: do not edit.
// `npm run api-docs` writes it again; clients/typescript/client.ts is the fetch wrapper over it.

/** Pixmill API 1: the OpenAPI document's version this file was made from. */
export const API_VERSION = "1";

export type ErrorEnvelope = {
  /** the spec’s code: 1–6 account forms (1 parameter error, 2 unknown user, 3 wrong password, 5 invalid validation, 6 verification failed), 10001 parameter error, 10012 insufficient credits, 30004 not enough points, 404 a model file not found (GET /models/…), 500 server fault, 503 service unavailable */
  code: 1 | 2 | 3 | 5 | 6 | 404 | 500 | 503 | 10001 | 10012 | 30004;
  /** English text; clients switch on data.reason, never on the text */
  msg: string;
  data: null | {
    /** the refusal’s stable code (the catalogue of src/shared/domain/reasons.ts) */
    reason?: "outputTooLarge" | "emptyFile" | "imageTooLarge" | "fieldRequired" | "fieldInvalid" | "fieldUnknown" | "routeNotFound" | "methodNotAllowed" | "unauthorized" | "missingCredentials" | "invalidApiKey" | "rateLimited" | "apiTokenResetConflict" | "idempotencyKeyReused" | "fileTooLarge" | "imageTooLong" | "insufficientCredits" | "processFailed" | "processTimeout" | "stillProcessing" | "badUrl" | "badRequest" | "nulByte" | "bodyTooLarge" | "badContentLength" | "unsupportedType" | "badJson" | "emptyJson" | "jsonTooDeep" | "multipartExpected" | "noBoundary" | "truncated" | "badMultipart" | "badFieldName" | "badJsonField" | "requestTimeout" | "headersTooLarge" | "crossSite" | "fieldTooLong" | "tooManyFiles" | "tooManyFields" | "tooManyParts" | "serviceUnavailable" | "unsupportedImage" | "damagedImage" | "sliceRefused" | "uploadExpired" | "badJob" | "slicesNumbers" | "sliceTotalMismatch" | "sliceTooLarge" | "sliceSize" | "sliceNeedsUid" | "sliceEmpty" | "uploadRateLimited" | "guestBytesPerHour" | "storageFull" | "urlInvalid" | "urlPrivate" | "urlFailed" | "urlTimeout" | "uploadNotFound" | "jconfigNotJson" | "jconfigNotObject" | "jconfigTooLarge" | "jconfigTooDeep" | "unknownJob" | "moduleMismatch" | "paramsNotObject" | "paramUnknown" | "paramInvalid" | "moduleUnavailable" | "noValidWorkflow" | "tooManySteps" | "lastStepOnly" | "psdProOnly" | "bestColorizeProOnly" | "scaleSubscribersOnly" | "bestEnlargeSubscribersOnly" | "planMegapixels" | "planSide" | "batchLimit" | "guestWorksPerAddress" | "batchSubscribersOnly" | "workflowLimit" | "workflowNameTooLong" | "workflowNotFound" | "workNotFound" | "workNotFinished" | "workExpired" | "resultNotFound" | "notCompressWork" | "bulkTooMany" | "downloadNotFound" | "notEnoughPoints" | "sampleNotFound" | "loginFailed" | "wrongPassword" | "loginLocked" | "emailInvalid" | "emailTaken" | "emailUnknown" | "passwordWeak" | "passwordMismatch" | "passwordSame" | "nameTooLong" | "occupationRequired" | "surveyRequired" | "nothingToUpdate" | "messageTooLong" | "validationInvalid" | "notUserToken" | "guestNotBound" | "guestTokenUnknown" | "apiPlanRequired" | "notRegistered" | "noPlanToRenew" | "shareCodeInvalid" | "shareCodeOwn" | "shareCodeUsed" | "purchasingDisabled" | "providerFailed" | "providerNotFound" | "productUnknown" | "apiPlanUnknown" | "emailNotOwn" | "checkoutNotFound" | "checkoutLimit" | "checkoutClosed" | "paymentEventInvalid" | "paymentEventIncomplete" | "reportDataInvalid";
    /** the request field at fault, as a path for nested fields (jconfig.config.module_params.scale) */
    field?: string;
  };
};

/** What to run: one feature with its params, a preset, or a workflow of steps. `job` tells the variants apart. */
export type JobConfig = {
  job: "enlarge";
  config?: {
    /** the same as job (may be left out) */
    module?: "enlarge";
    /** enlarge’s params; a missing one takes its default */
    module_params?: {
      /** the model; only this value */
      model_name?: "EnlargeStable";
      /** choose the strengths from the photo (the other strengths are then upper bounds) (true/false; 1/0 also taken) */
      autoparams?: boolean | (0 | 1 | "0" | "1" | "true" | "false");
      /** noise suppression strength: 0–100 (its decimal text also taken) */
      suppress_noise?: number | string;
      /** deblur strength: 0–100 (its decimal text also taken) */
      remove_blur?: number | string;
      /** enlargement factor: 2, 4, 6, 8 (also as text with an "x": "4x") */
      scale?: (2 | 4 | 6 | 8) | string;
      /** quality: high, best */
      quality?: "high" | "best";
    };
  };
} | {
  job: "denoise";
  config?: {
    /** the same as job (may be left out) */
    module?: "denoise";
    /** denoise’s params; a missing one takes its default */
    module_params?: {
      /** the model; only this value */
      model_name?: "DenoiseStable";
      /** noise removal strength: 0–100 (its decimal text also taken) */
      remove_noise?: number | string;
      /** sharpening strength: 0–100 (its decimal text also taken) */
      sharpen?: number | string;
      /** how much fine original detail may go with the noise: 0–100 (its decimal text also taken) */
      remove_original_detail?: number | string;
      /** choose the strengths from the photo (the other strengths are then upper bounds) (true/false; 1/0 also taken) */
      autoparams?: boolean | (0 | 1 | "0" | "1" | "true" | "false");
    };
  };
} | {
  job: "sharpen";
  config?: {
    /** the same as job (may be left out) */
    module?: "sharpen";
    /** sharpen’s params; a missing one takes its default */
    module_params?: {
      /** sharpening strength: 0–100 (its decimal text also taken) */
      sharpness?: number | string;
      /** noise suppression strength: 0–100 (its decimal text also taken) */
      suppress_noise?: number | string;
      /** film grain added back: 0–100 (its decimal text also taken) */
      add_grain?: number | string;
      /** choose the strengths from the photo (the other strengths are then upper bounds) (true/false; 1/0 also taken) */
      autoparams?: boolean | (0 | 1 | "0" | "1" | "true" | "false");
    };
  };
} | {
  job: "sharpen_auto";
  config?: {
    /** the same as job (may be left out) */
    module?: "sharpen_auto";
    /** sharpen_auto’s params; a missing one takes its default */
    module_params?: {
      /** the model; only this value */
      model_name?: "DpedSharpenStable";
    };
  };
} | {
  job: "matting";
  config?: {
    /** the same as job (may be left out) */
    module?: "matting";
    /** matting’s params; a missing one takes its default */
    module_params?: {
      /** the size the background net sees (larger: finer edges, slower): 532, 320 (also as text with an "x": "4x") */
      rescale?: (532 | 320) | string;
    };
  };
} | {
  job: "colorize";
  config?: {
    /** the same as job (may be left out) */
    module?: "colorize";
    /** colorize’s params; a missing one takes its default */
    module_params?: {
      /** the model; only this value */
      model_name?: "ColorizeStable_pth";
      /** colour detail (higher: more, slower): 1–50 (its decimal text also taken) */
      render_factor?: number | string;
      /** also a layered PSD (Pro) (true/false; 1/0 also taken) */
      psd?: boolean | (0 | 1 | "0" | "1" | "true" | "false");
      /** best colorize mode (Pro) (true/false; 1/0 also taken) */
      isBest?: boolean | (0 | 1 | "0" | "1" | "true" | "false");
      /** quality: 1–100 (its decimal text also taken) */
      quality?: number | string;
    };
  };
} | {
  job: "colorize_pro";
  config?: {
    /** the same as job (may be left out) */
    module?: "colorize_pro";
    /** colorize_pro’s params; a missing one takes its default */
    module_params?: {
      /** the model; only this value */
      model_name?: "ColorizeStable_pth";
      /** colour detail (higher: more, slower): 1–50 (its decimal text also taken) */
      render_factor?: number | string;
      /** also a layered PSD (Pro) (true/false; 1/0 also taken) */
      psd?: boolean | (0 | 1 | "0" | "1" | "true" | "false");
    };
  };
} | {
  job: "portrait";
  config?: {
    /** the same as job (may be left out) */
    module?: "portrait";
    /** portrait’s params; a missing one takes its default */
    module_params?: {
      /** the portrait has one face (detected and framed) (true/false; 1/0 also taken) */
      single_face?: boolean | (0 | 1 | "0" | "1" | "true" | "false");
    };
  };
} | {
  job: "cartoonize";
  config?: {
    /** the same as job (may be left out) */
    module?: "cartoonize";
    /** cartoonize’s params; a missing one takes its default */
    module_params?: {
      /** the model; only this value */
      model_name?: "CartoonizeStable";
    };
  };
} | {
  job: "face_enhancer";
  config?: {
    /** the same as job (may be left out) */
    module?: "face_enhancer";
    /** face_enhancer’s params; a missing one takes its default */
    module_params?: {
      /** the model; only this value */
      model_name?: "FaceEnhancerStable";
    };
  };
} | {
  job: "perfect";
  config?: {
    /** the same as job (may be left out) */
    module?: "perfect";
    /** perfect’s params; a missing one takes its default */
    module_params?: {
      /** the model; only this value */
      model_name?: "perfect_2k";
    };
  };
} | {
  job: "repair";
  config?: {
    /** the same as job (may be left out) */
    module?: "repair";
    /** repair’s params; a missing one takes its default */
    module_params?: Record<string, never>;
  };
} | {
  job: "compress";
  /** the same as config.module_params.quality (the spec’s shorthand) */
  quality?: number | string;
  config?: {
    /** the same as job (may be left out) */
    module?: "compress";
    /** compress’s params; a missing one takes its default */
    module_params?: {
      /** quality: 1–100 (its decimal text also taken) */
      quality?: number | string;
    };
  };
} | {
  job: "se-night";
} | {
  job: "se-hd";
} | {
  job: "se-portrait-enhancement";
} | {
  job: "se-old-repair";
} | {
  job: "workflow";
  /** the workflow’s name */
  name?: string;
  /** the steps in order (3 for subscribers below Pro, 5 for Pro; enlarge and matting only last) */
  flows: Array<{
    /** the step’s label (shown in the history) */
    name?: string;
    /** the step: module and module_params */
    config: string | {
      module: "enlarge";
      /** enlarge’s params; a missing one takes its default */
      module_params?: {
        /** the model; only this value */
        model_name?: "EnlargeStable";
        /** choose the strengths from the photo (the other strengths are then upper bounds) (true/false; 1/0 also taken) */
        autoparams?: boolean | (0 | 1 | "0" | "1" | "true" | "false");
        /** noise suppression strength: 0–100 (its decimal text also taken) */
        suppress_noise?: number | string;
        /** deblur strength: 0–100 (its decimal text also taken) */
        remove_blur?: number | string;
        /** enlargement factor: 2, 4, 6, 8 (also as text with an "x": "4x") */
        scale?: (2 | 4 | 6 | 8) | string;
        /** quality: high, best */
        quality?: "high" | "best";
      };
    } | {
      module: "denoise";
      /** denoise’s params; a missing one takes its default */
      module_params?: {
        /** the model; only this value */
        model_name?: "DenoiseStable";
        /** noise removal strength: 0–100 (its decimal text also taken) */
        remove_noise?: number | string;
        /** sharpening strength: 0–100 (its decimal text also taken) */
        sharpen?: number | string;
        /** how much fine original detail may go with the noise: 0–100 (its decimal text also taken) */
        remove_original_detail?: number | string;
        /** choose the strengths from the photo (the other strengths are then upper bounds) (true/false; 1/0 also taken) */
        autoparams?: boolean | (0 | 1 | "0" | "1" | "true" | "false");
      };
    } | {
      module: "sharpen";
      /** sharpen’s params; a missing one takes its default */
      module_params?: {
        /** sharpening strength: 0–100 (its decimal text also taken) */
        sharpness?: number | string;
        /** noise suppression strength: 0–100 (its decimal text also taken) */
        suppress_noise?: number | string;
        /** film grain added back: 0–100 (its decimal text also taken) */
        add_grain?: number | string;
        /** choose the strengths from the photo (the other strengths are then upper bounds) (true/false; 1/0 also taken) */
        autoparams?: boolean | (0 | 1 | "0" | "1" | "true" | "false");
      };
    } | {
      module: "sharpen_auto";
      /** sharpen_auto’s params; a missing one takes its default */
      module_params?: {
        /** the model; only this value */
        model_name?: "DpedSharpenStable";
      };
    } | {
      module: "matting";
      /** matting’s params; a missing one takes its default */
      module_params?: {
        /** the size the background net sees (larger: finer edges, slower): 532, 320 (also as text with an "x": "4x") */
        rescale?: (532 | 320) | string;
      };
    } | {
      module: "colorize";
      /** colorize’s params; a missing one takes its default */
      module_params?: {
        /** the model; only this value */
        model_name?: "ColorizeStable_pth";
        /** colour detail (higher: more, slower): 1–50 (its decimal text also taken) */
        render_factor?: number | string;
        /** also a layered PSD (Pro) (true/false; 1/0 also taken) */
        psd?: boolean | (0 | 1 | "0" | "1" | "true" | "false");
        /** best colorize mode (Pro) (true/false; 1/0 also taken) */
        isBest?: boolean | (0 | 1 | "0" | "1" | "true" | "false");
        /** quality: 1–100 (its decimal text also taken) */
        quality?: number | string;
      };
    } | {
      module: "colorize_pro";
      /** colorize_pro’s params; a missing one takes its default */
      module_params?: {
        /** the model; only this value */
        model_name?: "ColorizeStable_pth";
        /** colour detail (higher: more, slower): 1–50 (its decimal text also taken) */
        render_factor?: number | string;
        /** also a layered PSD (Pro) (true/false; 1/0 also taken) */
        psd?: boolean | (0 | 1 | "0" | "1" | "true" | "false");
      };
    } | {
      module: "portrait";
      /** portrait’s params; a missing one takes its default */
      module_params?: {
        /** the portrait has one face (detected and framed) (true/false; 1/0 also taken) */
        single_face?: boolean | (0 | 1 | "0" | "1" | "true" | "false");
      };
    } | {
      module: "cartoonize";
      /** cartoonize’s params; a missing one takes its default */
      module_params?: {
        /** the model; only this value */
        model_name?: "CartoonizeStable";
      };
    } | {
      module: "face_enhancer";
      /** face_enhancer’s params; a missing one takes its default */
      module_params?: {
        /** the model; only this value */
        model_name?: "FaceEnhancerStable";
      };
    } | {
      module: "perfect";
      /** perfect’s params; a missing one takes its default */
      module_params?: {
        /** the model; only this value */
        model_name?: "perfect_2k";
      };
    } | {
      module: "repair";
      /** repair’s params; a missing one takes its default */
      module_params?: Record<string, never>;
    } | {
      module: "compress";
      /** compress’s params; a missing one takes its default */
      module_params?: {
        /** quality: 1–100 (its decimal text also taken) */
        quality?: number | string;
      };
    };
  }>;
};

/** GET /api/health: Answers while the server is up */
export type GetHealthFields = Record<string, unknown>;
export type GetHealthData = {
  status: "up";
};
export type GetHealthHeaders = Record<never, never>;

/** GET /api-docs/openapi.json: This API’s OpenAPI 3.1 document */
export type GetApiDocsOpenapiJsonFields = Record<string, unknown>;
export type GetApiDocsOpenapiJsonData = unknown;
export type GetApiDocsOpenapiJsonHeaders = Record<never, never>;

/** GET /sitemap.xml: Every site page in en and its /de/, /fr/, /ja/ alternates */
export type GetSitemapXmlFields = Record<string, unknown>;
export type GetSitemapXmlData = never;
export type GetSitemapXmlHeaders = Record<never, never>;

/** GET /robots.txt: What crawlers may visit (everything but the API) and where the sitemap is */
export type GetRobotsTxtFields = Record<string, unknown>;
export type GetRobotsTxtData = never;
export type GetRobotsTxtHeaders = Record<never, never>;

/** POST /api/v2/guest_token: A new guest token (a guest account with a few free credits) */
export type PostGuestTokenFields = Record<string, never>;
export type PostGuestTokenData = {
  /** send it as guest_token_v2 */
  token: string;
};
export type PostGuestTokenHeaders = {
  /** requests the window allows */
  "X-RateLimit-Limit"?: number;
  /** requests left in this window */
  "X-RateLimit-Remaining"?: number;
  /** seconds until the window starts again */
  "X-RateLimit-Reset"?: number;
};

/** POST /api/v2/bind_token: Moves a guest’s uploads, works and workflows to the signed-in user */
export type PostBindTokenFields = {
  /** the signed-in user’s token (or user_token) */
  token?: string;
  /** the guest token whose work moves to the user */
  guest_token_v2?: string;
};
export type PostBindTokenData = {
  moved_uploads: number;
  moved_jobs: number;
};
export type PostBindTokenHeaders = Record<never, never>;

/** POST /api/v2/unbind_token: Ends a guest token’s binding to the user */
export type PostUnbindTokenFields = {
  /** the signed-in user’s token (or user_token) */
  token?: string;
  /** the guest token whose work moves to the user */
  guest_token_v2?: string;
};
export type PostUnbindTokenData = null;
export type PostUnbindTokenHeaders = Record<never, never>;

/** GET /api/v2/point: The caller’s credits */
export type GetPointFields = Record<string, unknown>;
export type GetPointData = {
  max_num: number;
  used_num: number;
  left_credits: number;
};
export type GetPointHeaders = {
  /** requests the window allows */
  "X-RateLimit-Limit"?: number;
  /** requests left in this window */
  "X-RateLimit-Remaining"?: number;
  /** seconds until the window starts again */
  "X-RateLimit-Reset"?: number;
};

/** POST /api/v2/license: The caller’s plan, credits and limits */
export type PostLicenseFields = Record<string, never>;
export type PostLicenseData = {
  user_id: number;
  pid: number;
  is_expired: boolean;
  /** credits granted */
  max_num: number;
  /** credits spent */
  used_num: number;
  user_level: "guest" | "register" | "basic" | "pro" | "expired";
  first_name: string;
  last_name: string;
  occupation: string;
  left_credits: number;
  /** few credits left, once some were spent */
  low_credit_warning: boolean;
  compress_max: number;
  compress_used: number;
  plan_expires_at: number | null;
};
export type PostLicenseHeaders = {
  /** requests the window allows */
  "X-RateLimit-Limit"?: number;
  /** requests left in this window */
  "X-RateLimit-Remaining"?: number;
  /** seconds until the window starts again */
  "X-RateLimit-Reset"?: number;
};

/** POST /web_api/v1/upload: Uploads a whole image (multipart) */
export type PostUploadFields = {
  /** the feature the image is for (its plan limits apply), e.g. enlarge, compress */
  job?: string;
  /** the file name, when the file part has none */
  name?: string;
  /** the image: JPG, JPEG or PNG (other formats are refused) */
  file: Blob;
  /** an optional 80×80 preview made by the client */
  thumbnail?: Blob;
};
export type PostUploadData = {
  data: {
    /** an upload’s id (from the upload calls) */
    uid: string;
    filename: string;
    /** bytes */
    filesize: number;
    w: number;
    h: number;
    /** the working copy’s format */
    format: "jpeg" | "png";
    job: string;
    /** URL of the 80×80 thumbnail */
    thumbnail: string;
    sha256: string;
  };
};
export type PostUploadHeaders = {
  /** requests the window allows */
  "X-RateLimit-Limit"?: number;
  /** requests left in this window */
  "X-RateLimit-Remaining"?: number;
  /** seconds until the window starts again */
  "X-RateLimit-Reset"?: number;
};

/** POST /api/v2/upload_slice: Uploads one slice (at most 5 MB) of a large image; the last one completes it */
export type PostUploadSliceFields = {
  /** the upload’s id, from the first slice’s answer */
  uid?: string;
  /** this slice’s number, from 1 */
  blob_num: number;
  /** how many slices the file has */
  total_blob_num: number;
  /** the file name (first slice) */
  name?: string;
  /** the feature the image is for (first slice) */
  job?: string;
  /** the slice’s bytes */
  file: Blob;
  /** an optional preview (first slice) */
  thumbnail?: Blob;
};
export type PostUploadSliceData = {
  /** an upload’s id (from the upload calls) */
  uid: string;
  filename?: string;
  /** bytes */
  filesize?: number;
  w?: number;
  h?: number;
  /** the working copy’s format */
  format?: "jpeg" | "png";
  job?: string;
  /** URL of the 80×80 thumbnail */
  thumbnail?: string;
  sha256?: string;
  blob_num: number;
  total_blob_num: number;
  /** slice numbers received so far */
  received: number[];
  /** the last slice arrived: the upload is assembled */
  done: boolean;
};
export type PostUploadSliceHeaders = {
  /** requests the window allows */
  "X-RateLimit-Limit"?: number;
  /** requests left in this window */
  "X-RateLimit-Remaining"?: number;
  /** seconds until the window starts again */
  "X-RateLimit-Reset"?: number;
};

/** POST /api/v2/upload_slice/status: Which slices of an upload arrived (to resume) */
export type PostUploadSliceStatusFields = {
  /** an upload’s id (from the upload calls) */
  uid: string;
};
export type PostUploadSliceStatusData = {
  /** an upload’s id (from the upload calls) */
  uid: string;
  total_blob_num: number;
  received: number[];
  done: boolean;
  status: string;
};
export type PostUploadSliceStatusHeaders = {
  /** requests the window allows */
  "X-RateLimit-Limit"?: number;
  /** requests left in this window */
  "X-RateLimit-Remaining"?: number;
  /** seconds until the window starts again */
  "X-RateLimit-Reset"?: number;
};

/** POST /api/job_utils/upload_url: Uploads an image the server fetches from a URL */
export type PostJobUtilsUploadUrlFields = {
  /** an http(s) URL of a public image */
  url: string;
  /** the feature the image is for (or `job`) */
  type?: string;
  /** the feature the image is for */
  job?: string;
};
export type PostJobUtilsUploadUrlData = {
  data: {
    /** an upload’s id (from the upload calls) */
    uid: string;
    filename: string;
    /** bytes */
    filesize: number;
    w: number;
    h: number;
    /** the working copy’s format */
    format: "jpeg" | "png";
    job: string;
    /** URL of the 80×80 thumbnail */
    thumbnail: string;
    sha256: string;
  };
};
export type PostJobUtilsUploadUrlHeaders = {
  /** requests the window allows */
  "X-RateLimit-Limit"?: number;
  /** requests left in this window */
  "X-RateLimit-Remaining"?: number;
  /** seconds until the window starts again */
  "X-RateLimit-Reset"?: number;
};

/** POST /web_api/v1/upload/list: The caller’s uploads still kept */
export type PostUploadListFields = {
  limit?: number;
};
export type PostUploadListData = {
  datas: Array<{
    /** an upload’s id (from the upload calls) */
    uid: string;
    name: string;
    file_size: number;
    thumbnail: string;
    w: number;
    h: number;
    /** width of the working copy (after auto-orientation) */
    x: number;
    y: number;
  }>;
  /** how long this caller’s uploads and results are kept */
  retention_days: number;
};
export type PostUploadListHeaders = Record<never, never>;

/** GET /api/v2/retention: How long the caller’s files are kept, and the upload quota */
export type GetRetentionFields = Record<string, unknown>;
export type GetRetentionData = {
  level: "guest" | "register" | "basic" | "pro" | "expired";
  retention_days: number;
  unfinished_upload_hours: number;
  uploads_per_minute: number;
  stored_bytes_limit: number;
  stored_bytes_used: number;
};
export type GetRetentionHeaders = Record<never, never>;

/** POST /web_api/v1/upload/delete: Deletes uploads (and their works’ results) */
export type PostUploadDeleteFields = {
  /** an upload’s id (from the upload calls) */
  uid?: string;
  /** uploads, as a comma-separated list or repeated uids[] */
  uids?: string | string[];
};
export type PostUploadDeleteData = {
  deleted: number;
};
export type PostUploadDeleteHeaders = Record<never, never>;

/** GET /web_api/v1/download/src: An upload’s working copy */
export type GetDownloadSrcFields = {
  /** an upload’s id (from the upload calls) */
  uid: string;
  /** accepted for the client’s call shape; the source is always the working copy */
  zoom_type?: string;
};
export type GetDownloadSrcData = never;
export type GetDownloadSrcHeaders = {
  /** requests the window allows */
  "X-RateLimit-Limit"?: number;
  /** requests left in this window */
  "X-RateLimit-Remaining"?: number;
  /** seconds until the window starts again */
  "X-RateLimit-Reset"?: number;
};

/** GET /web_api/v1/thumbnail: An upload’s 80×80 thumbnail */
export type GetThumbnailFields = {
  /** an upload’s id (from the upload calls) */
  uid: string;
};
export type GetThumbnailData = never;
export type GetThumbnailHeaders = Record<never, never>;

/** POST /web_api/v1/transform: Starts a work on an upload (one credit) */
export type PostTransformFields = {
  /** an upload’s id (from the upload calls) */
  uid: string;
  /** the job: a feature with its module_params, a preset or a workflow (JobConfig; JSON text in forms) */
  jconfig: JobConfig | string;
  /** a label the client keeps with the work */
  zoom_type?: string;
  /** with an API key: an http(s) URL that gets a signed POST when the work finishes or fails (Pixmill-Signature: t=…,v1=HMAC-SHA256 of "t.body" with your webhook secret), retried with backoff up to 5 tries; private and loopback addresses are refused */
  webhook_url?: string;
};
export type PostTransformData = {
  /** a work’s id (from transform) */
  trans_id: string;
  /** credits left after this work’s charge (compress works: compress credits left) */
  credits_left?: number;
};
export type PostTransformHeaders = {
  /** requests the window allows */
  "X-RateLimit-Limit"?: number;
  /** requests left in this window */
  "X-RateLimit-Remaining"?: number;
  /** seconds until the window starts again */
  "X-RateLimit-Reset"?: number;
  /** credits this call took (0 for a free preview or a replay) */
  "X-Credits-Charged"?: number;
  /** credits left after it (compress works: compress credits) */
  "X-Credits-Left"?: number;
};

/** GET /web_api/v1/progress: A work’s progress (poll every few seconds until finish or fatal) */
export type GetProgressFields = {
  /** a work’s id (from transform) */
  trans_id: string;
};
export type GetProgressData = {
  /** a work’s id (from transform) */
  trans_id: string;
  /** finish: done; fatal: failed; progress: queued or running */
  status: "finish" | "fatal" | "progress";
  progress: number;
  /** 1-based step being run (workflows) */
  step: number;
  steps: number;
  /** 1-based place among queued works, while waiting */
  queue_position?: number;
  /** "timeout" or "Process failed", when fatal */
  error?: string;
  /** why it failed, when fatal: outputTooLarge (the result would pass the largest side; the upload’s size times the scale), processTimeout, processFailed */
  reason?: "outputTooLarge" | "processTimeout" | "processFailed";
  /** the result’s width, once finished */
  result_w?: number;
  result_h?: number;
  /** once finished, a work with an enlarge step: net (the chosen nets ran on every tile), fast_net (a pass ran on the fast net to fit the job limit), resized (a pass was resized without AI: no net fitted the job limit) */
  enlarge_path?: "net" | "fast_net" | "resized";
  /** while waiting or running: about how many seconds until it is done, from the photo’s megapixels, the feature, the scale and this server’s measured rate of that engine; a waiting work counts the running works and the works ahead of it in queue order, shared by the slots */
  seconds_left?: number;
};
export type GetProgressHeaders = {
  /** requests the window allows */
  "X-RateLimit-Limit"?: number;
  /** requests left in this window */
  "X-RateLimit-Remaining"?: number;
  /** seconds until the window starts again */
  "X-RateLimit-Reset"?: number;
};

/** POST /api/v1/process: Processes one image and answers the result (upload, start, wait and download in one call) */
export type PostProcessFields = {
  /** an http(s) URL of a public JPG or PNG, instead of file */
  url?: string;
  /** the job: a feature with its module_params, a preset or a workflow (JobConfig; JSON text in forms) */
  jconfig?: JobConfig | string;
  /** a feature or preset, instead of jconfig; its params as further fields (background_removal and remove_background are other names of matting) */
  feature?: "enlarge" | "denoise" | "sharpen" | "sharpen_auto" | "matting" | "colorize" | "colorize_pro" | "portrait" | "cartoonize" | "face_enhancer" | "perfect" | "repair" | "compress" | "se-night" | "se-hd" | "se-portrait-enhancement" | "se-old-repair" | "background_removal" | "remove_background";
  /** auto: a photo over your plan’s megapixels or side is scaled down to it, as the web app does (X-Input-Downscaled: true); full: refused instead (422); preview: scaled so the result is at most 0.25 MP, free of credit for 50 results a month by default (X-Free-Previews-Left) */
  size?: "auto" | "preview" | "full";
  /** the result’s format (default: the feature’s own; a cut-out is PNG). png and webp keep a cut-out’s transparency; jpg is flattened on bg_color (white by default) */
  format?: "png" | "jpg" | "webp";
  /** a colour behind a cut-out (hex rrggbb or rgb, # optional, or a basic name): the result is opaque */
  bg_color?: string;
  /** true: crop a cut-out to the subject’s box (its opaque pixels), with crop_margin around it */
  crop?: boolean | ("true" | "false" | "0" | "1");
  /** with an API key: an http(s) URL that gets a signed POST when the work finishes or fails (Pixmill-Signature: t=…,v1=HMAC-SHA256 of "t.body" with your webhook secret), retried with backoff up to 5 tries; private and loopback addresses are refused */
  webhook_url?: string;
  /** px kept around the subject when cropping */
  crop_margin?: number;
  /** seconds to wait for the result before answering 202 */
  wait?: number;
  /** text, a number or true/false: with feature enlarge or denoise or sharpen, its choose the strengths from the photo (the other strengths are then upper bounds) (JobConfig has its type, range and default) */
  autoparams?: string | number | boolean;
  /** text, a number or true/false: with feature enlarge or sharpen, its noise suppression strength (JobConfig has its type, range and default) */
  suppress_noise?: string | number | boolean;
  /** text, a number or true/false: with feature enlarge, its deblur strength (JobConfig has its type, range and default) */
  remove_blur?: string | number | boolean;
  /** text, a number or true/false: with feature enlarge, its enlargement factor (JobConfig has its type, range and default) */
  scale?: string | number | boolean;
  /** text, a number or true/false: with feature enlarge or colorize or compress, its quality (JobConfig has its type, range and default) */
  quality?: string | number | boolean;
  /** text, a number or true/false: with feature denoise, its noise removal strength (JobConfig has its type, range and default) */
  remove_noise?: string | number | boolean;
  /** text, a number or true/false: with feature denoise, its sharpening strength (JobConfig has its type, range and default) */
  sharpen?: string | number | boolean;
  /** text, a number or true/false: with feature denoise, its how much fine original detail may go with the noise (JobConfig has its type, range and default) */
  remove_original_detail?: string | number | boolean;
  /** text, a number or true/false: with feature sharpen, its sharpening strength (JobConfig has its type, range and default) */
  sharpness?: string | number | boolean;
  /** text, a number or true/false: with feature sharpen, its film grain added back (JobConfig has its type, range and default) */
  add_grain?: string | number | boolean;
  /** text, a number or true/false: with feature matting, its the size the background net sees (larger: finer edges, slower) (JobConfig has its type, range and default) */
  rescale?: string | number | boolean;
  /** text, a number or true/false: with feature colorize or colorize_pro, its colour detail (higher: more, slower) (JobConfig has its type, range and default) */
  render_factor?: string | number | boolean;
  /** text, a number or true/false: with feature colorize or colorize_pro, its also a layered PSD (Pro) (JobConfig has its type, range and default) */
  psd?: string | number | boolean;
  /** text, a number or true/false: with feature colorize, its best colorize mode (Pro) (JobConfig has its type, range and default) */
  isBest?: string | number | boolean;
  /** text, a number or true/false: with feature portrait, its the portrait has one face (detected and framed) (JobConfig has its type, range and default) */
  single_face?: string | number | boolean;
  /** the image: JPG, JPEG or PNG (or send url) */
  file?: Blob;
};
export type PostProcessData = never;
export type PostProcessData202 = {
  reason: "stillProcessing";
  /** a work’s id (from transform) */
  trans_id: string;
  status: "progress";
  progress: number;
  /** 1-based place among queued works, while waiting */
  queue_position?: number;
  /** credits left after this work’s charge (compress works: compress credits left) */
  credits_left: number;
};
export type PostProcessHeaders = {
  /** requests the window allows */
  "X-RateLimit-Limit"?: number;
  /** requests left in this window */
  "X-RateLimit-Remaining"?: number;
  /** seconds until the window starts again */
  "X-RateLimit-Reset"?: number;
  /** the work’s trans_id */
  "X-Trans-Id"?: string;
  /** credits this call took (0 for a free preview or a replay) */
  "X-Credits-Charged"?: number;
  /** credits left after it (compress works: compress credits) */
  "X-Credits-Left"?: number;
  /** true when the photo was scaled down to your plan (size=auto) or to a preview */
  "X-Input-Downscaled"?: boolean;
  /** size=preview: free previews left this month */
  "X-Free-Previews-Left"?: number;
  /** the result’s width in px */
  "X-Width"?: number;
  /** the result’s height in px */
  "X-Height"?: number;
  /** a work with an enlarge step: net (the chosen nets ran on every tile), fast_net (a pass ran on the fast net to fit the job limit) or resized (a pass was resized without AI: no net fitted the job limit) */
  "X-Enlarge-Path"?: string;
};
export type PostProcessHeaders202 = {
  /** requests the window allows */
  "X-RateLimit-Limit"?: number;
  /** requests left in this window */
  "X-RateLimit-Remaining"?: number;
  /** seconds until the window starts again */
  "X-RateLimit-Reset"?: number;
  /** the work’s trans_id */
  "X-Trans-Id"?: string;
  /** credits this call took (0 for a free preview or a replay) */
  "X-Credits-Charged"?: number;
  /** credits left after it (compress works: compress credits) */
  "X-Credits-Left"?: number;
  /** true when the photo was scaled down to your plan (size=auto) or to a preview */
  "X-Input-Downscaled"?: boolean;
  /** size=preview: free previews left this month */
  "X-Free-Previews-Left"?: number;
  /** the progress call to poll */
  Location?: string;
};

/** GET /web_api/v1/download/: Downloads a finished work’s result */
export type GetDownloadFields = {
  /** a work’s id (from transform) */
  trans_id: string;
  /** a result variant, when the work made several */
  zoom_type?: string;
};
export type GetDownloadData = never;
export type GetDownloadHeaders = {
  /** requests the window allows */
  "X-RateLimit-Limit"?: number;
  /** requests left in this window */
  "X-RateLimit-Remaining"?: number;
  /** seconds until the window starts again */
  "X-RateLimit-Reset"?: number;
};

/** GET /web_api/v1/download: Downloads a finished work’s result */
export type GetDownloadAliasFields = {
  /** a work’s id (from transform) */
  trans_id: string;
  /** a result variant, when the work made several */
  zoom_type?: string;
};
export type GetDownloadAliasData = never;
export type GetDownloadAliasHeaders = {
  /** requests the window allows */
  "X-RateLimit-Limit"?: number;
  /** requests left in this window */
  "X-RateLimit-Remaining"?: number;
  /** seconds until the window starts again */
  "X-RateLimit-Reset"?: number;
};

/** GET /web_api/v1/preview: A finished work’s result, shown inline */
export type GetPreviewFields = {
  /** a work’s id (from transform) */
  trans_id: string;
};
export type GetPreviewData = never;
export type GetPreviewHeaders = {
  /** requests the window allows */
  "X-RateLimit-Limit"?: number;
  /** requests left in this window */
  "X-RateLimit-Remaining"?: number;
  /** seconds until the window starts again */
  "X-RateLimit-Reset"?: number;
};

/** POST /api/job/download_compress: A compress work’s result, converted to another format */
export type PostJobDownloadCompressFields = {
  /** a work’s id (from transform) */
  trans_id: string;
  /** jpg, png or webp; the work’s own format when left out */
  extra_type?: string;
};
export type PostJobDownloadCompressData = never;
export type PostJobDownloadCompressHeaders = Record<never, never>;

/** POST /api/v2/point/check: Checks that works may be downloaded together; optionally makes a bundle id for the zip */
export type PostPointCheckFields = {
  /** one work */
  trans_id?: string;
  /** works, as a comma-separated list or repeated trans_ids[] (at most 100) */
  trans_ids?: string | string[];
  /** 1: answer a download_all_id for GET /api/v2/download/all/ */
  need_download_temp_id?: 1 | 0;
};
export type PostPointCheckData = {
  max_num: number;
  used_num: number;
  /** valid one hour, for this account */
  download_all_id?: string;
};
export type PostPointCheckHeaders = Record<never, never>;

/** GET /api/v2/download/all: The zip of a bundle made by point check */
export type GetDownloadAllAliasFields = {
  /** from POST /api/v2/point/check */
  download_all_id: string;
};
export type GetDownloadAllAliasData = never;
export type GetDownloadAllAliasHeaders = Record<never, never>;

/** POST /api/v2/download/all: A zip of several finished works’ results */
export type PostDownloadAllFields = {
  /** one work */
  trans_id?: string;
  /** works, as a comma-separated list or repeated trans_ids[] (at most 100) */
  trans_ids?: string | string[];
};
export type PostDownloadAllData = never;
export type PostDownloadAllHeaders = Record<never, never>;

/** GET /api/v2/download/all/: The zip of a bundle made by point check */
export type GetDownloadAllFields = {
  /** from POST /api/v2/point/check */
  download_all_id: string;
};
export type GetDownloadAllData = never;
export type GetDownloadAllHeaders = Record<never, never>;

/** GET /api/job/record: The caller’s works, newest first */
export type GetJobRecordFields = {
  /** works per page (at most 100 are answered) */
  limit?: number;
  /** page number from 1 */
  page?: number;
};
export type GetJobRecordData = {
  datas: Array<{
    /** a work’s id (from transform) */
    trans_id: string;
    /** the upload it was made from */
    uid: string;
    /** the feature (or "workflow") */
    job: string;
    status: "queued" | "running" | "finished" | "failed";
    filename: string | null;
    w: number | null;
    h: number | null;
    result_w: number | null;
    result_h: number | null;
    /** ms since 1970 */
    created_at: number;
    finished_at: number | null;
    thumbsup: number | null;
    /** the result is no longer kept */
    expired: boolean;
    /** how many times larger than the source the result is (enlarge steps; 1 for the rest) */
    scale: number;
    /** why it failed, when fatal: outputTooLarge (the result would pass the largest side; the upload’s size times the scale), processTimeout, processFailed */
    reason?: "outputTooLarge" | "processTimeout" | "processFailed";
    /** once finished, a work with an enlarge step: net (the chosen nets ran on every tile), fast_net (a pass ran on the fast net to fit the job limit), resized (a pass was resized without AI: no net fitted the job limit) */
    enlarge_path?: "net" | "fast_net" | "resized";
  }>;
  current_page: number;
  total: number;
  last_page: number;
};
export type GetJobRecordHeaders = Record<never, never>;

/** POST /api/v2/thumbsup: Rates a result */
export type PostThumbsupFields = {
  /** a work’s id (from transform) */
  trans_id: string;
  /** 1 like, -1 dislike, 0 no opinion */
  thumbsup: 1 | -1 | 0;
};
export type PostThumbsupData = {
  /** a work’s id (from transform) */
  trans_id: string;
  thumbsup: number;
};
export type PostThumbsupHeaders = Record<never, never>;

/** GET /api/v2/sample/info: Sample images, by feature type */
export type GetSampleInfoFields = Record<string, unknown>;
export type GetSampleInfoData = Record<string, Array<{
  name: string;
  /** URL path under /samples/ */
  original: string;
  /** URL path under /samples/; may hold the literal {scale} placeholder */
  processed: string;
  w: number;
  h: number;
}>>;
export type GetSampleInfoHeaders = Record<never, never>;

/** GET /api/v2/sample/download: One sample image, before or after */
export type GetSampleDownloadFields = {
  /** the feature type (a key of sample/info) */
  job: string;
  type: "original" | "processed";
  /** the sample’s index */
  num?: number;
  /** the scale of an enlarge sample: 1, 2, 4, 6 or 8 (a trailing x is allowed) */
  rate?: string;
};
export type GetSampleDownloadData = never;
export type GetSampleDownloadHeaders = Record<never, never>;

/** GET /api/job_utils/download/sample: A sample file by its /samples/… path */
export type GetJobUtilsDownloadSampleFields = {
  /** the path (or `path`) */
  name?: string;
  path?: string;
};
export type GetJobUtilsDownloadSampleData = never;
export type GetJobUtilsDownloadSampleHeaders = Record<never, never>;

/** GET /api/v2/engine_rates: This server’s measured engine rates, for the time estimate shown before a start */
export type GetEngineRatesFields = Record<string, unknown>;
export type GetEngineRatesData = {
  /** seconds per input MP by engine key */
  rates: Record<string, number>;
  /** seconds every work takes beyond its steps */
  overhead_s: number;
};
export type GetEngineRatesHeaders = Record<never, never>;

/** GET /api/work_flow/list: The caller’s saved workflows, newest first */
export type GetWorkFlowListFields = {
  page?: number;
  limit?: number;
};
export type GetWorkFlowListData = {
  datas: Array<{
    id: number;
    name: string;
    flows: Array<{
      /** the step’s label */
      name: string;
      /** JSON text of {module, module_params} */
      config: string;
    }>;
    /** shown in the workspace */
    active: boolean;
    created_at: number;
    updated_at: number;
  }>;
  current_page: number;
  total: number;
  last_page: number;
  per_page: number;
};
export type GetWorkFlowListHeaders = Record<never, never>;

/** POST /api/work_flow/add: Saves a new workflow */
export type PostWorkFlowAddFields = {
  /** the workflow’s name (at most 50 characters once trimmed); a dated name when empty */
  name?: string;
  /** the steps, in order: [{name, config: {module, module_params}}] (config may be its JSON text) */
  flows: string | Array<{
    name?: string;
    config: string | {
      /** the feature’s module, e.g. enlarge */
      module: string;
      /** its parameters */
      module_params?: Record<string, unknown>;
    };
  }>;
};
export type PostWorkFlowAddData = {
  id: number;
};
export type PostWorkFlowAddHeaders = Record<never, never>;

/** POST /api/work_flow/update: Renames a workflow or replaces its steps */
export type PostWorkFlowUpdateFields = {
  /** a workflow’s id */
  id: number;
  /** the workflow’s name (at most 50 characters once trimmed); a dated name when empty */
  name?: string;
  /** the steps, in order: [{name, config: {module, module_params}}] (config may be its JSON text) */
  flows: string | Array<{
    name?: string;
    config: string | {
      /** the feature’s module, e.g. enlarge */
      module: string;
      /** its parameters */
      module_params?: Record<string, unknown>;
    };
  }>;
};
export type PostWorkFlowUpdateData = {
  id: number;
  name: string;
  flows: Array<{
    /** the step’s label */
    name: string;
    /** JSON text of {module, module_params} */
    config: string;
  }>;
  /** shown in the workspace */
  active: boolean;
  created_at: number;
  updated_at: number;
};
export type PostWorkFlowUpdateHeaders = Record<never, never>;

/** POST /api/work_flow/delete: Deletes workflows (all the caller’s, or none) */
export type PostWorkFlowDeleteFields = {
  /** a workflow’s id */
  id?: number;
  /** workflow ids: one, a comma-separated list or repeated ids[] */
  ids?: string | number | number[];
};
export type PostWorkFlowDeleteData = {
  deleted: number;
};
export type PostWorkFlowDeleteHeaders = Record<never, never>;

/** POST /api/work_flow/active_flows: Picks the workflows shown in the workspace (without ids: reads them) */
export type PostWorkFlowActiveFlowsFields = {
  /** a workflow’s id */
  id?: number;
  /** workflow ids: one, a comma-separated list or repeated ids[] */
  ids?: string | number | number[];
};
export type PostWorkFlowActiveFlowsData = {
  datas: Array<{
    id: number;
    name: string;
    flows: Array<{
      /** the step’s label */
      name: string;
      /** JSON text of {module, module_params} */
      config: string;
    }>;
    /** shown in the workspace */
    active: boolean;
    created_at: number;
    updated_at: number;
  }>;
};
export type PostWorkFlowActiveFlowsHeaders = Record<never, never>;

/** GET /api/v2/subscribe_info: The plans on sale and the caller’s plan */
export type GetSubscribeInfoFields = Record<string, unknown>;
export type GetSubscribeInfoData = {
  products: Array<{
    id: number;
    level: string;
    price: Record<string, number>;
  }>;
  level: "guest" | "register" | "basic" | "pro" | "expired";
  subscribed: boolean;
  expires_at: number | null;
};
export type GetSubscribeInfoHeaders = {
  /** requests the window allows */
  "X-RateLimit-Limit"?: number;
  /** requests left in this window */
  "X-RateLimit-Remaining"?: number;
  /** seconds until the window starts again */
  "X-RateLimit-Reset"?: number;
};

/** GET /api/v2/is_subscribed: Whether the signed-in caller is on a live paid plan */
export type GetIsSubscribedFields = {
  /** must be the caller’s own address, when sent */
  email?: string;
};
export type GetIsSubscribedData = {
  subscribed: boolean;
};
export type GetIsSubscribedHeaders = {
  /** requests the window allows */
  "X-RateLimit-Limit"?: number;
  /** requests left in this window */
  "X-RateLimit-Remaining"?: number;
  /** seconds until the window starts again */
  "X-RateLimit-Reset"?: number;
};

/** POST /api/cart/abandon: Records a checkout left on the pricing page */
export type PostCartAbandonFields = {
  /** a product of subscribe_info */
  product_id?: number;
  /** the currency shown */
  currency?: string;
  /** utm source */
  source?: string;
  /** utm medium */
  medium?: string;
};
export type PostCartAbandonData = {
  event_id: number;
};
export type PostCartAbandonHeaders = {
  /** requests the window allows */
  "X-RateLimit-Limit"?: number;
  /** requests left in this window */
  "X-RateLimit-Remaining"?: number;
  /** seconds until the window starts again */
  "X-RateLimit-Reset"?: number;
};

/** GET /site-ajax/nonce: A nonce for the site ajax endpoint, bound to the session */
export type GetSiteAjaxNonceFields = Record<string, unknown>;
export type GetSiteAjaxNonceData = {
  nonce: string;
};
export type GetSiteAjaxNonceHeaders = Record<never, never>;

/** POST /site-ajax: The site ajax endpoint: a user token for the session, or a credit notification */
export type PostSiteAjaxFields = {
  /** what to do (either spelling) */
  action: "nonce" | "get_user_token" | "get-user-token" | "credit_transform" | "credit-transform" | "credit_upload" | "credit-upload" | "credit_download" | "credit-download";
  /** from /site-ajax/nonce (every action but nonce) */
  nonce?: string;
  pid?: string;
  trans_id?: string;
  uid?: string;
};
export type PostSiteAjaxData = {
  nonce: string;
} | {
  user_token: string;
} | {
  event_id: number;
};
export type PostSiteAjaxHeaders = {
  /** requests the window allows */
  "X-RateLimit-Limit"?: number;
  /** requests left in this window */
  "X-RateLimit-Remaining"?: number;
  /** seconds until the window starts again */
  "X-RateLimit-Reset"?: number;
};

/** POST /api/v2/user_info/update: Language and currency (anyone), names (signed-in users); only the fields sent change */
export type PostUserInfoUpdateFields = {
  /** the site language */
  locale?: "en" | "de" | "fr" | "ja";
  /** the currency prices are shown in */
  currency?: "USD" | "EUR" | "JPY";
  /** first name */
  first_name?: string;
  /** last name */
  last_name?: string;
};
export type PostUserInfoUpdateData = {
  locale: string;
  currency: string;
  first_name: string;
  last_name: string;
};
export type PostUserInfoUpdateHeaders = Record<never, never>;

/** POST /api/v2/profile/set: Sets the profile: names and occupation */
export type PostProfileSetFields = {
  /** first name */
  first_name?: string;
  /** last name */
  last_name?: string;
  /** occupation */
  occupation?: string;
  /** the free text when occupation is other */
  occupation_other?: string;
};
export type PostProfileSetData = {
  first_name: string;
  last_name: string;
  occupation: string;
  occupation_other: string;
};
export type PostProfileSetHeaders = Record<never, never>;

/** POST /api/mail/unsubscribe: Stops mail to an address (the link in every mail, or the signed-in owner) */
export type PostMailUnsubscribeFields = {
  /** the address */
  email?: string;
  /** the signature from the mail’s link */
  sig?: string;
};
export type PostMailUnsubscribeData = {
  email: string;
  unsubscribed: true;
};
export type PostMailUnsubscribeHeaders = Record<never, never>;

/** POST /api/v2/common/email_status: Whether an address has an account and still receives mail (its owner, or with the mail link’s signature) */
export type PostCommonEmailStatusFields = {
  /** the address */
  email?: string;
  sig?: string;
};
export type PostCommonEmailStatusData = {
  email: string;
  registered: true;
  mail_subscribed: boolean;
};
export type PostCommonEmailStatusHeaders = {
  /** requests the window allows */
  "X-RateLimit-Limit"?: number;
  /** requests left in this window */
  "X-RateLimit-Remaining"?: number;
  /** seconds until the window starts again */
  "X-RateLimit-Reset"?: number;
};

/** POST /api/v2/common/count_down: The caller’s offer countdown (starts on the first call) */
export type PostCommonCountDownFields = Record<string, never>;
export type PostCommonCountDownData = {
  start_at: number;
  end_at: number;
  remaining_ms: number;
};
export type PostCommonCountDownHeaders = Record<never, never>;

/** GET /api/promotion/share/code: The caller’s share code */
export type GetPromotionShareCodeFields = Record<string, unknown>;
export type GetPromotionShareCodeData = {
  code: string;
};
export type GetPromotionShareCodeHeaders = Record<never, never>;

/** GET /api/promotion/share/bind: Binds the caller to the owner of a share code (once per promotion) */
export type GetPromotionShareBindFields = {
  /** the promotion */
  type: "anniversary_2021";
  /** the share code (8 letters and digits) */
  code: string;
};
export type GetPromotionShareBindData = {
  bound: true;
  type: string;
  code: string;
};
export type GetPromotionShareBindHeaders = Record<never, never>;

/** GET /api/promotion/giveaway/checkin: The daily check-in (one per UTC day) */
export type GetPromotionGiveawayCheckinFields = Record<string, unknown>;
export type GetPromotionGiveawayCheckinData = {
  day: string;
  new_checkin: boolean;
  days: number;
};
export type GetPromotionGiveawayCheckinHeaders = Record<never, never>;

/** POST /api/report: An analytics event of the workspace */
export type PostReportFields = {
  event: "preview" | "preview_drag" | "download_all" | "add_credits_popup" | "add_image" | "first_image_process";
  /** the event’s details: an object (or its JSON text) */
  data?: Record<string, unknown> | string;
  /** the same as data (older clients) */
  payload?: Record<string, unknown> | string;
};
export type PostReportData = {
  event_id: number;
};
export type PostReportHeaders = {
  /** requests the window allows */
  "X-RateLimit-Limit"?: number;
  /** requests left in this window */
  "X-RateLimit-Remaining"?: number;
  /** seconds until the window starts again */
  "X-RateLimit-Reset"?: number;
};

/** POST /api/account/register: Creates an account and signs in (sets the session cookie) */
export type PostAccountRegisterFields = {
  /** the address */
  email?: string;
  /** the password (8 characters or more, letters and digits) */
  password?: string;
  /** the password (8 characters or more, letters and digits) */
  confirm_password?: string;
};
export type PostAccountRegisterData = {
  id: number;
  email: string;
  first_name: string;
  last_name: string;
  occupation: string;
  occupation_other: string;
  pid: number;
  /** guest, register, basic, pro or expired */
  level: string;
  max_num: number;
  used_num: number;
  plan_expires_at: number | null;
  /** occupation survey answers */
  survey: string[];
  /** send it as user_token */
  user_token: string;
};
export type PostAccountRegisterHeaders = {
  /** requests the window allows */
  "X-RateLimit-Limit"?: number;
  /** requests left in this window */
  "X-RateLimit-Remaining"?: number;
  /** seconds until the window starts again */
  "X-RateLimit-Reset"?: number;
};

/** POST /api/account/login: Signs in (sets the session cookie) and answers a user token */
export type PostAccountLoginFields = {
  /** the address */
  email?: string;
  /** the password (8 characters or more, letters and digits) */
  password?: string;
};
export type PostAccountLoginData = {
  id: number;
  email: string;
  first_name: string;
  last_name: string;
  occupation: string;
  occupation_other: string;
  pid: number;
  /** guest, register, basic, pro or expired */
  level: string;
  max_num: number;
  used_num: number;
  plan_expires_at: number | null;
  /** occupation survey answers */
  survey: string[];
  /** send it as user_token */
  user_token: string;
};
export type PostAccountLoginHeaders = {
  /** requests the window allows */
  "X-RateLimit-Limit"?: number;
  /** requests left in this window */
  "X-RateLimit-Remaining"?: number;
  /** seconds until the window starts again */
  "X-RateLimit-Reset"?: number;
};

/** POST /api/account/logout: Ends the session and the user token sent; unbinds the guest token sent */
export type PostAccountLogoutFields = {
  /** a guest token to unbind (else the guest_token cookie) */
  guest_token_v2?: string;
};
export type PostAccountLogoutData = null;
export type PostAccountLogoutHeaders = Record<never, never>;

/** GET /api/account/me: The signed-in account */
export type GetAccountMeFields = Record<string, unknown>;
export type GetAccountMeData = {
  id: number;
  email: string;
  first_name: string;
  last_name: string;
  occupation: string;
  occupation_other: string;
  pid: number;
  /** guest, register, basic, pro or expired */
  level: string;
  max_num: number;
  used_num: number;
  plan_expires_at: number | null;
  /** occupation survey answers */
  survey: string[];
};
export type GetAccountMeHeaders = Record<never, never>;

/** POST /api/account/password: Changes the password; every other session and user token ends */
export type PostAccountPasswordFields = {
  /** the password (8 characters or more, letters and digits) */
  old_password?: string;
  /** the password (8 characters or more, letters and digits) */
  password?: string;
  /** the password (8 characters or more, letters and digits) */
  confirm_password?: string;
};
export type PostAccountPasswordData = {
  /** the caller’s new user token */
  user_token: string;
};
export type PostAccountPasswordHeaders = {
  /** requests the window allows */
  "X-RateLimit-Limit"?: number;
  /** requests left in this window */
  "X-RateLimit-Remaining"?: number;
  /** seconds until the window starts again */
  "X-RateLimit-Reset"?: number;
};

/** POST /api/v2/survey/set: The occupation survey: one or more occupations */
export type PostSurveySetFields = {
  /** occupations (a list, or a comma-separated text) */
  occupations?: string | string[];
  /** the free text when other is chosen */
  occupation_other?: string;
};
export type PostSurveySetData = {
  survey: string[];
};
export type PostSurveySetHeaders = Record<never, never>;

/** GET /api/payments/config: Whether this server sells plans, and through which provider */
export type GetPaymentsConfigFields = Record<string, unknown>;
export type GetPaymentsConfigData = {
  purchasing: boolean;
  provider: string;
};
export type GetPaymentsConfigHeaders = Record<never, never>;

/** GET /api/payments/checkout: One of the caller’s checkouts */
export type GetPaymentsCheckoutFields = {
  /** a checkout’s id */
  id: string;
};
export type GetPaymentsCheckoutData = {
  /** a checkout’s id */
  checkout_id: string;
  /** local or stripe */
  provider: string;
  /** the plan’s or API pack’s product id */
  product_id: number;
  /** basic, pro, or api for an API credit pack */
  level: string;
  /** the price in the currency’s units */
  amount: number;
  currency: string;
  status: "open" | "paid" | "cancelled";
  /** where the browser pays */
  url: string;
};
export type GetPaymentsCheckoutHeaders = Record<never, never>;

/** POST /api/payments/checkout: Opens a checkout for a plan (Basic or Pro) */
export type PostPaymentsCheckoutFields = {
  /** 606836 basic, 606838 pro */
  product_id: 606836 | 606838;
  /** USD, EUR or JPY; the account’s currency (else its language’s) when absent */
  currency?: "USD" | "EUR" | "JPY";
  /** the language of the checkout page */
  locale?: string;
  /** where the buyer came from (kept, first 64 characters) */
  source?: string;
  medium?: string;
};
export type PostPaymentsCheckoutData = {
  /** a checkout’s id */
  checkout_id: string;
  /** local or stripe */
  provider: string;
  /** the plan’s or API pack’s product id */
  product_id: number;
  /** basic, pro, or api for an API credit pack */
  level: string;
  /** the price in the currency’s units */
  amount: number;
  currency: string;
  status: "open" | "paid" | "cancelled";
  /** where the browser pays */
  url: string;
};
export type PostPaymentsCheckoutHeaders = Record<never, never>;

/** POST /api/payments/local/pay: The local provider’s pay step (PAYMENT_PROVIDER=local only) */
export type PostPaymentsLocalPayFields = {
  /** a checkout’s id */
  id: string;
};
export type PostPaymentsLocalPayData = {
  event_id: string;
  type: string;
  applied: boolean;
  duplicate: boolean;
  checkout: {
    /** a checkout’s id */
    checkout_id: string;
    /** local or stripe */
    provider: string;
    /** the plan’s or API pack’s product id */
    product_id: number;
    /** basic, pro, or api for an API credit pack */
    level: string;
    /** the price in the currency’s units */
    amount: number;
    currency: string;
    status: "open" | "paid" | "cancelled";
    /** where the browser pays */
    url: string;
  };
};
export type PostPaymentsLocalPayHeaders = Record<never, never>;

/** GET /api/v2/checkout: Opens a checkout for an API credit pack */
export type GetCheckoutFields = {
  /** the signed-in account’s email address */
  email: string;
  /** the API credit pack */
  api_plan: "api_500" | "api_2000" | "api_10000";
  /** USD or EUR; the account’s currency when it is one of them, else by its language */
  currency?: "USD" | "EUR";
};
export type GetCheckoutData = {
  /** a checkout’s id */
  checkout_id: string;
  /** local or stripe */
  provider: string;
  /** the plan’s or API pack’s product id */
  product_id: number;
  /** basic, pro, or api for an API credit pack */
  level: string;
  /** the price in the currency’s units */
  amount: number;
  currency: string;
  status: "open" | "paid" | "cancelled";
  /** where the browser pays */
  url: string;
};
export type GetCheckoutHeaders = Record<never, never>;

/** POST /api/payments/webhook/{provider}: A payment provider’s signed event delivery */
export type PostPaymentsWebhookProviderFields = Record<string, never>;
export type PostPaymentsWebhookProviderData = {
  event_id: string;
  type: string;
  applied: boolean;
  duplicate: boolean;
};
export type PostPaymentsWebhookProviderHeaders = Record<never, never>;

/** GET /models/{name}: An on-device model file (immutable under its name) */
export type GetModelsNameFields = Record<string, unknown>;
export type GetModelsNameData = never;
export type GetModelsNameHeaders = Record<never, never>;

/** GET /api/contact/info: The contact address */
export type GetContactInfoFields = Record<string, unknown>;
export type GetContactInfoData = {
  email: string;
};
export type GetContactInfoHeaders = Record<never, never>;

/** POST /api/contact/send: Sends the contact form */
export type PostContactSendFields = {
  /** your name */
  name?: string;
  /** your address */
  email?: string;
  /** the message */
  message?: string;
  /** en, de, fr or ja */
  locale?: string;
};
export type PostContactSendData = {
  id: number;
};
export type PostContactSendHeaders = {
  /** requests the window allows */
  "X-RateLimit-Limit"?: number;
  /** requests left in this window */
  "X-RateLimit-Remaining"?: number;
  /** seconds until the window starts again */
  "X-RateLimit-Reset"?: number;
};

/** POST /api/v2/api_token/get: Creates the caller’s API token, or shows the existing one’s metadata */
export type PostApiTokenGetFields = {
  /** false: only show the existing token’s metadata (data is null when there is none); the account page asks so before the user chooses to create one */
  create?: boolean;
};
export type PostApiTokenGetData = {
  api_token: string | null;
  webhook_secret: string | null;
  /** the token’s visible form: prefix and last four characters */
  masked: string;
  /** true when this answer created the token */
  created: boolean;
  /** ms since 1970 */
  created_at: number;
  last_used_at: number | null;
  /** calls made with this token in the current month (UTC) */
  calls_this_month: number;
  /** what the key rests on: a Pro subscription, an API credit pack, or a free account (free previews, full size with its credits) */
  entitlement: "pro" | "api_plan" | "free";
  /** results at size=preview (at most 0.25 MP) that cost no credit this month (UTC) */
  free_previews_left: number;
  /** free previews a month (the server’s API_FREE_PREVIEWS_PER_MONTH) */
  free_previews_per_month: number;
  /** credits left; each processed image uses one, as in the workspace */
  credits: number;
  /** API pack credits still owned (within credits left): plan changes keep them; plan credits are spent first */
  api_pack_credits: number;
  /** calls a minute this token may make */
  rate_limit_per_minute: number;
} | null;
export type PostApiTokenGetHeaders = {
  /** requests the window allows */
  "X-RateLimit-Limit"?: number;
  /** requests left in this window */
  "X-RateLimit-Remaining"?: number;
  /** seconds until the window starts again */
  "X-RateLimit-Reset"?: number;
};

/** POST /api/v2/api_token/reset: Replaces the caller’s API token; the old one stops working at once */
export type PostApiTokenResetFields = Record<string, never>;
export type PostApiTokenResetData = {
  api_token: string | null;
  webhook_secret: string | null;
  /** the token’s visible form: prefix and last four characters */
  masked: string;
  /** true when this answer created the token */
  created: boolean;
  /** ms since 1970 */
  created_at: number;
  last_used_at: number | null;
  /** calls made with this token in the current month (UTC) */
  calls_this_month: number;
  /** what the key rests on: a Pro subscription, an API credit pack, or a free account (free previews, full size with its credits) */
  entitlement: "pro" | "api_plan" | "free";
  /** results at size=preview (at most 0.25 MP) that cost no credit this month (UTC) */
  free_previews_left: number;
  /** free previews a month (the server’s API_FREE_PREVIEWS_PER_MONTH) */
  free_previews_per_month: number;
  /** credits left; each processed image uses one, as in the workspace */
  credits: number;
  /** API pack credits still owned (within credits left): plan changes keep them; plan credits are spent first */
  api_pack_credits: number;
  /** calls a minute this token may make */
  rate_limit_per_minute: number;
};
export type PostApiTokenResetHeaders = {
  /** requests the window allows */
  "X-RateLimit-Limit"?: number;
  /** requests left in this window */
  "X-RateLimit-Remaining"?: number;
  /** seconds until the window starts again */
  "X-RateLimit-Reset"?: number;
};

/** POST /api/v2/api_token/webhooks: The account’s latest webhook deliveries (the account page’s Developer API section) */
export type PostApiTokenWebhooksFields = Record<string, never>;
export type PostApiTokenWebhooksData = Array<{
  /** the work */
  trans_id: string;
  /** the webhook_url it was started with */
  url: string;
  /** waiting: the work runs; sending: a try is under way; retry: a try failed, another is due; delivered: a 2xx answer; failed: every try failed (or the address is private) */
  status: "waiting" | "sending" | "retry" | "delivered" | "failed";
  event: ("work.finished" | "work.failed") | null;
  /** tries so far */
  attempts: number;
  last_http: number | null;
  last_error: string | null;
  /** ms since 1970 */
  created_at: number;
  delivered_at: number | null;
}>;
export type PostApiTokenWebhooksHeaders = {
  /** requests the window allows */
  "X-RateLimit-Limit"?: number;
  /** requests left in this window */
  "X-RateLimit-Remaining"?: number;
  /** seconds until the window starts again */
  "X-RateLimit-Reset"?: number;
};

/** The headers a refusal may carry (any operation's non-2xx answers), as PixmillError.header reads them. */
export type RefusalHeaders = {
  /** requests the window allows */
  "X-RateLimit-Limit"?: number;
  /** requests left in this window */
  "X-RateLimit-Remaining"?: number;
  /** seconds until the window starts again */
  "X-RateLimit-Reset"?: number;
  /** seconds to wait before the next request */
  "Retry-After"?: number;
};

/** Every response header the document declares, by name: the type its value is read as. */
export const RESPONSE_HEADERS = {
  "X-RateLimit-Limit": "number",
  "X-RateLimit-Remaining": "number",
  "X-RateLimit-Reset": "number",
  "Retry-After": "number",
  "X-Credits-Charged": "number",
  "X-Credits-Left": "number",
  "X-Trans-Id": "string",
  "X-Input-Downscaled": "boolean",
  "X-Free-Previews-Left": "number",
  "X-Width": "number",
  "X-Height": "number",
  "X-Enlarge-Path": "string",
  Location: "string",
} as const;

/** A declared header of an answer, read as its type: a number, a boolean or the text; undefined when the answer has none. */
export type HeaderOf<H> = <N extends keyof H & string>(name: N) => H[N] | undefined;

/** A call that answers a file: its bytes, type and name, the HTTP status and headers (H: those the document declares). */
export interface FileAnswer<H = Record<never, never>> {
  kind: 'file';
  status: 200;
  bytes: ArrayBuffer;
  type: string;
  /** from Content-Disposition, when the answer names one */
  filename?: string;
  headers: Headers;
  /** a header the document declares for this answer, typed: `out.header('X-Credits-Left')` is a number */
  header: HeaderOf<H>;
}
/** A JSON answer: the envelope's data (code 200), the HTTP status and headers (H: those the document declares). */
export interface JsonAnswer<T, S extends number = 200, H = Record<never, never>> {
  kind: 'json';
  status: S;
  data: T;
  headers: Headers;
  /** a header the document declares for this answer, typed: `out.header('X-RateLimit-Remaining')` is a number */
  header: HeaderOf<H>;
}

/** Every operation by its operationId: method, path, where its fields go, what it answers, whether it takes the API key. */
export const OPERATIONS = {
  getHealth: { method: "GET", path: "/api/health", body: "query", json: false, answer: "json", apiKey: false },
  getApiDocsOpenapiJson: { method: "GET", path: "/api-docs/openapi.json", body: "query", json: false, answer: "json", apiKey: false },
  getSitemapXml: { method: "GET", path: "/sitemap.xml", body: "query", json: false, answer: "file", apiKey: false },
  getRobotsTxt: { method: "GET", path: "/robots.txt", body: "query", json: false, answer: "file", apiKey: false },
  postGuestToken: { method: "POST", path: "/api/v2/guest_token", body: "form", json: false, answer: "json", apiKey: false },
  postBindToken: { method: "POST", path: "/api/v2/bind_token", body: "form", json: true, answer: "json", apiKey: false },
  postUnbindToken: { method: "POST", path: "/api/v2/unbind_token", body: "form", json: true, answer: "json", apiKey: false },
  getPoint: { method: "GET", path: "/api/v2/point", body: "query", json: false, answer: "json", apiKey: true },
  postLicense: { method: "POST", path: "/api/v2/license", body: "form", json: false, answer: "json", apiKey: true },
  postUpload: { method: "POST", path: "/web_api/v1/upload", body: "multipart", json: false, answer: "json", apiKey: true },
  postUploadSlice: { method: "POST", path: "/api/v2/upload_slice", body: "multipart", json: false, answer: "json", apiKey: true },
  postUploadSliceStatus: { method: "POST", path: "/api/v2/upload_slice/status", body: "form", json: true, answer: "json", apiKey: true },
  postJobUtilsUploadUrl: { method: "POST", path: "/api/job_utils/upload_url", body: "form", json: true, answer: "json", apiKey: true },
  postUploadList: { method: "POST", path: "/web_api/v1/upload/list", body: "form", json: true, answer: "json", apiKey: false },
  getRetention: { method: "GET", path: "/api/v2/retention", body: "query", json: false, answer: "json", apiKey: false },
  postUploadDelete: { method: "POST", path: "/web_api/v1/upload/delete", body: "form", json: true, answer: "json", apiKey: false },
  getDownloadSrc: { method: "GET", path: "/web_api/v1/download/src", body: "query", json: false, answer: "file", apiKey: true },
  getThumbnail: { method: "GET", path: "/web_api/v1/thumbnail", body: "query", json: false, answer: "file", apiKey: false },
  postTransform: { method: "POST", path: "/web_api/v1/transform", body: "form", json: true, answer: "json", apiKey: true },
  getProgress: { method: "GET", path: "/web_api/v1/progress", body: "query", json: false, answer: "json", apiKey: true },
  postProcess: { method: "POST", path: "/api/v1/process", body: "multipart", json: true, answer: "file", apiKey: true },
  getDownload: { method: "GET", path: "/web_api/v1/download/", body: "query", json: false, answer: "file", apiKey: true },
  getDownloadAlias: { method: "GET", path: "/web_api/v1/download", body: "query", json: false, answer: "file", apiKey: true },
  getPreview: { method: "GET", path: "/web_api/v1/preview", body: "query", json: false, answer: "file", apiKey: true },
  postJobDownloadCompress: { method: "POST", path: "/api/job/download_compress", body: "form", json: true, answer: "file", apiKey: false },
  postPointCheck: { method: "POST", path: "/api/v2/point/check", body: "form", json: true, answer: "json", apiKey: false },
  getDownloadAllAlias: { method: "GET", path: "/api/v2/download/all", body: "query", json: false, answer: "file", apiKey: false },
  postDownloadAll: { method: "POST", path: "/api/v2/download/all", body: "form", json: true, answer: "file", apiKey: false },
  getDownloadAll: { method: "GET", path: "/api/v2/download/all/", body: "query", json: false, answer: "file", apiKey: false },
  getJobRecord: { method: "GET", path: "/api/job/record", body: "query", json: false, answer: "json", apiKey: false },
  postThumbsup: { method: "POST", path: "/api/v2/thumbsup", body: "form", json: true, answer: "json", apiKey: false },
  getSampleInfo: { method: "GET", path: "/api/v2/sample/info", body: "query", json: false, answer: "json", apiKey: false },
  getSampleDownload: { method: "GET", path: "/api/v2/sample/download", body: "query", json: false, answer: "file", apiKey: false },
  getJobUtilsDownloadSample: { method: "GET", path: "/api/job_utils/download/sample", body: "query", json: false, answer: "file", apiKey: false },
  getEngineRates: { method: "GET", path: "/api/v2/engine_rates", body: "query", json: false, answer: "json", apiKey: false },
  getWorkFlowList: { method: "GET", path: "/api/work_flow/list", body: "query", json: false, answer: "json", apiKey: false },
  postWorkFlowAdd: { method: "POST", path: "/api/work_flow/add", body: "form", json: true, answer: "json", apiKey: false },
  postWorkFlowUpdate: { method: "POST", path: "/api/work_flow/update", body: "form", json: true, answer: "json", apiKey: false },
  postWorkFlowDelete: { method: "POST", path: "/api/work_flow/delete", body: "form", json: true, answer: "json", apiKey: false },
  postWorkFlowActiveFlows: { method: "POST", path: "/api/work_flow/active_flows", body: "form", json: true, answer: "json", apiKey: false },
  getSubscribeInfo: { method: "GET", path: "/api/v2/subscribe_info", body: "query", json: false, answer: "json", apiKey: true },
  getIsSubscribed: { method: "GET", path: "/api/v2/is_subscribed", body: "query", json: false, answer: "json", apiKey: false },
  postCartAbandon: { method: "POST", path: "/api/cart/abandon", body: "form", json: true, answer: "json", apiKey: false },
  getSiteAjaxNonce: { method: "GET", path: "/site-ajax/nonce", body: "query", json: false, answer: "json", apiKey: false },
  postSiteAjax: { method: "POST", path: "/site-ajax", body: "form", json: true, answer: "json", apiKey: false },
  postUserInfoUpdate: { method: "POST", path: "/api/v2/user_info/update", body: "form", json: true, answer: "json", apiKey: false },
  postProfileSet: { method: "POST", path: "/api/v2/profile/set", body: "form", json: true, answer: "json", apiKey: false },
  postMailUnsubscribe: { method: "POST", path: "/api/mail/unsubscribe", body: "form", json: true, answer: "json", apiKey: false },
  postCommonEmailStatus: { method: "POST", path: "/api/v2/common/email_status", body: "form", json: true, answer: "json", apiKey: false },
  postCommonCountDown: { method: "POST", path: "/api/v2/common/count_down", body: "form", json: false, answer: "json", apiKey: false },
  getPromotionShareCode: { method: "GET", path: "/api/promotion/share/code", body: "query", json: false, answer: "json", apiKey: false },
  getPromotionShareBind: { method: "GET", path: "/api/promotion/share/bind", body: "query", json: false, answer: "json", apiKey: false },
  getPromotionGiveawayCheckin: { method: "GET", path: "/api/promotion/giveaway/checkin", body: "query", json: false, answer: "json", apiKey: false },
  postReport: { method: "POST", path: "/api/report", body: "form", json: true, answer: "json", apiKey: false },
  postAccountRegister: { method: "POST", path: "/api/account/register", body: "form", json: true, answer: "json", apiKey: false },
  postAccountLogin: { method: "POST", path: "/api/account/login", body: "form", json: true, answer: "json", apiKey: false },
  postAccountLogout: { method: "POST", path: "/api/account/logout", body: "form", json: true, answer: "json", apiKey: false },
  getAccountMe: { method: "GET", path: "/api/account/me", body: "query", json: false, answer: "json", apiKey: false },
  postAccountPassword: { method: "POST", path: "/api/account/password", body: "form", json: true, answer: "json", apiKey: false },
  postSurveySet: { method: "POST", path: "/api/v2/survey/set", body: "form", json: true, answer: "json", apiKey: false },
  getPaymentsConfig: { method: "GET", path: "/api/payments/config", body: "query", json: false, answer: "json", apiKey: false },
  getPaymentsCheckout: { method: "GET", path: "/api/payments/checkout", body: "query", json: false, answer: "json", apiKey: false },
  postPaymentsCheckout: { method: "POST", path: "/api/payments/checkout", body: "form", json: true, answer: "json", apiKey: false },
  postPaymentsLocalPay: { method: "POST", path: "/api/payments/local/pay", body: "form", json: true, answer: "json", apiKey: false },
  getCheckout: { method: "GET", path: "/api/v2/checkout", body: "query", json: false, answer: "json", apiKey: false },
  postPaymentsWebhookProvider: { method: "POST", path: "/api/payments/webhook/{provider}", body: "form", json: false, answer: "json", apiKey: false },
  getModelsName: { method: "GET", path: "/models/{name}", body: "query", json: false, answer: "file", apiKey: false },
  getContactInfo: { method: "GET", path: "/api/contact/info", body: "query", json: false, answer: "json", apiKey: false },
  postContactSend: { method: "POST", path: "/api/contact/send", body: "form", json: true, answer: "json", apiKey: false },
  postApiTokenGet: { method: "POST", path: "/api/v2/api_token/get", body: "form", json: true, answer: "json", apiKey: false },
  postApiTokenReset: { method: "POST", path: "/api/v2/api_token/reset", body: "form", json: false, answer: "json", apiKey: false },
  postApiTokenWebhooks: { method: "POST", path: "/api/v2/api_token/webhooks", body: "form", json: false, answer: "json", apiKey: false },
} as const;
export type OperationId = keyof typeof OPERATIONS;

/** Each operation's request fields and answer. */
export interface Operations {
  getHealth: { fields: GetHealthFields; answer: JsonAnswer<GetHealthData, 200, GetHealthHeaders> };
  getApiDocsOpenapiJson: { fields: GetApiDocsOpenapiJsonFields; answer: JsonAnswer<GetApiDocsOpenapiJsonData, 200, GetApiDocsOpenapiJsonHeaders> };
  getSitemapXml: { fields: GetSitemapXmlFields; answer: FileAnswer<GetSitemapXmlHeaders> };
  getRobotsTxt: { fields: GetRobotsTxtFields; answer: FileAnswer<GetRobotsTxtHeaders> };
  postGuestToken: { fields: PostGuestTokenFields; answer: JsonAnswer<PostGuestTokenData, 200, PostGuestTokenHeaders> };
  postBindToken: { fields: PostBindTokenFields; answer: JsonAnswer<PostBindTokenData, 200, PostBindTokenHeaders> };
  postUnbindToken: { fields: PostUnbindTokenFields; answer: JsonAnswer<PostUnbindTokenData, 200, PostUnbindTokenHeaders> };
  getPoint: { fields: GetPointFields; answer: JsonAnswer<GetPointData, 200, GetPointHeaders> };
  postLicense: { fields: PostLicenseFields; answer: JsonAnswer<PostLicenseData, 200, PostLicenseHeaders> };
  postUpload: { fields: PostUploadFields; answer: JsonAnswer<PostUploadData, 200, PostUploadHeaders> };
  postUploadSlice: { fields: PostUploadSliceFields; answer: JsonAnswer<PostUploadSliceData, 200, PostUploadSliceHeaders> };
  postUploadSliceStatus: { fields: PostUploadSliceStatusFields; answer: JsonAnswer<PostUploadSliceStatusData, 200, PostUploadSliceStatusHeaders> };
  postJobUtilsUploadUrl: { fields: PostJobUtilsUploadUrlFields; answer: JsonAnswer<PostJobUtilsUploadUrlData, 200, PostJobUtilsUploadUrlHeaders> };
  postUploadList: { fields: PostUploadListFields; answer: JsonAnswer<PostUploadListData, 200, PostUploadListHeaders> };
  getRetention: { fields: GetRetentionFields; answer: JsonAnswer<GetRetentionData, 200, GetRetentionHeaders> };
  postUploadDelete: { fields: PostUploadDeleteFields; answer: JsonAnswer<PostUploadDeleteData, 200, PostUploadDeleteHeaders> };
  getDownloadSrc: { fields: GetDownloadSrcFields; answer: FileAnswer<GetDownloadSrcHeaders> };
  getThumbnail: { fields: GetThumbnailFields; answer: FileAnswer<GetThumbnailHeaders> };
  postTransform: { fields: PostTransformFields; answer: JsonAnswer<PostTransformData, 200, PostTransformHeaders> };
  getProgress: { fields: GetProgressFields; answer: JsonAnswer<GetProgressData, 200, GetProgressHeaders> };
  postProcess: { fields: PostProcessFields; answer: FileAnswer<PostProcessHeaders> | JsonAnswer<PostProcessData202, 202, PostProcessHeaders202> };
  getDownload: { fields: GetDownloadFields; answer: FileAnswer<GetDownloadHeaders> };
  getDownloadAlias: { fields: GetDownloadAliasFields; answer: FileAnswer<GetDownloadAliasHeaders> };
  getPreview: { fields: GetPreviewFields; answer: FileAnswer<GetPreviewHeaders> };
  postJobDownloadCompress: { fields: PostJobDownloadCompressFields; answer: FileAnswer<PostJobDownloadCompressHeaders> };
  postPointCheck: { fields: PostPointCheckFields; answer: JsonAnswer<PostPointCheckData, 200, PostPointCheckHeaders> };
  getDownloadAllAlias: { fields: GetDownloadAllAliasFields; answer: FileAnswer<GetDownloadAllAliasHeaders> };
  postDownloadAll: { fields: PostDownloadAllFields; answer: FileAnswer<PostDownloadAllHeaders> };
  getDownloadAll: { fields: GetDownloadAllFields; answer: FileAnswer<GetDownloadAllHeaders> };
  getJobRecord: { fields: GetJobRecordFields; answer: JsonAnswer<GetJobRecordData, 200, GetJobRecordHeaders> };
  postThumbsup: { fields: PostThumbsupFields; answer: JsonAnswer<PostThumbsupData, 200, PostThumbsupHeaders> };
  getSampleInfo: { fields: GetSampleInfoFields; answer: JsonAnswer<GetSampleInfoData, 200, GetSampleInfoHeaders> };
  getSampleDownload: { fields: GetSampleDownloadFields; answer: FileAnswer<GetSampleDownloadHeaders> };
  getJobUtilsDownloadSample: { fields: GetJobUtilsDownloadSampleFields; answer: FileAnswer<GetJobUtilsDownloadSampleHeaders> };
  getEngineRates: { fields: GetEngineRatesFields; answer: JsonAnswer<GetEngineRatesData, 200, GetEngineRatesHeaders> };
  getWorkFlowList: { fields: GetWorkFlowListFields; answer: JsonAnswer<GetWorkFlowListData, 200, GetWorkFlowListHeaders> };
  postWorkFlowAdd: { fields: PostWorkFlowAddFields; answer: JsonAnswer<PostWorkFlowAddData, 200, PostWorkFlowAddHeaders> };
  postWorkFlowUpdate: { fields: PostWorkFlowUpdateFields; answer: JsonAnswer<PostWorkFlowUpdateData, 200, PostWorkFlowUpdateHeaders> };
  postWorkFlowDelete: { fields: PostWorkFlowDeleteFields; answer: JsonAnswer<PostWorkFlowDeleteData, 200, PostWorkFlowDeleteHeaders> };
  postWorkFlowActiveFlows: { fields: PostWorkFlowActiveFlowsFields; answer: JsonAnswer<PostWorkFlowActiveFlowsData, 200, PostWorkFlowActiveFlowsHeaders> };
  getSubscribeInfo: { fields: GetSubscribeInfoFields; answer: JsonAnswer<GetSubscribeInfoData, 200, GetSubscribeInfoHeaders> };
  getIsSubscribed: { fields: GetIsSubscribedFields; answer: JsonAnswer<GetIsSubscribedData, 200, GetIsSubscribedHeaders> };
  postCartAbandon: { fields: PostCartAbandonFields; answer: JsonAnswer<PostCartAbandonData, 200, PostCartAbandonHeaders> };
  getSiteAjaxNonce: { fields: GetSiteAjaxNonceFields; answer: JsonAnswer<GetSiteAjaxNonceData, 200, GetSiteAjaxNonceHeaders> };
  postSiteAjax: { fields: PostSiteAjaxFields; answer: JsonAnswer<PostSiteAjaxData, 200, PostSiteAjaxHeaders> };
  postUserInfoUpdate: { fields: PostUserInfoUpdateFields; answer: JsonAnswer<PostUserInfoUpdateData, 200, PostUserInfoUpdateHeaders> };
  postProfileSet: { fields: PostProfileSetFields; answer: JsonAnswer<PostProfileSetData, 200, PostProfileSetHeaders> };
  postMailUnsubscribe: { fields: PostMailUnsubscribeFields; answer: JsonAnswer<PostMailUnsubscribeData, 200, PostMailUnsubscribeHeaders> };
  postCommonEmailStatus: { fields: PostCommonEmailStatusFields; answer: JsonAnswer<PostCommonEmailStatusData, 200, PostCommonEmailStatusHeaders> };
  postCommonCountDown: { fields: PostCommonCountDownFields; answer: JsonAnswer<PostCommonCountDownData, 200, PostCommonCountDownHeaders> };
  getPromotionShareCode: { fields: GetPromotionShareCodeFields; answer: JsonAnswer<GetPromotionShareCodeData, 200, GetPromotionShareCodeHeaders> };
  getPromotionShareBind: { fields: GetPromotionShareBindFields; answer: JsonAnswer<GetPromotionShareBindData, 200, GetPromotionShareBindHeaders> };
  getPromotionGiveawayCheckin: { fields: GetPromotionGiveawayCheckinFields; answer: JsonAnswer<GetPromotionGiveawayCheckinData, 200, GetPromotionGiveawayCheckinHeaders> };
  postReport: { fields: PostReportFields; answer: JsonAnswer<PostReportData, 200, PostReportHeaders> };
  postAccountRegister: { fields: PostAccountRegisterFields; answer: JsonAnswer<PostAccountRegisterData, 200, PostAccountRegisterHeaders> };
  postAccountLogin: { fields: PostAccountLoginFields; answer: JsonAnswer<PostAccountLoginData, 200, PostAccountLoginHeaders> };
  postAccountLogout: { fields: PostAccountLogoutFields; answer: JsonAnswer<PostAccountLogoutData, 200, PostAccountLogoutHeaders> };
  getAccountMe: { fields: GetAccountMeFields; answer: JsonAnswer<GetAccountMeData, 200, GetAccountMeHeaders> };
  postAccountPassword: { fields: PostAccountPasswordFields; answer: JsonAnswer<PostAccountPasswordData, 200, PostAccountPasswordHeaders> };
  postSurveySet: { fields: PostSurveySetFields; answer: JsonAnswer<PostSurveySetData, 200, PostSurveySetHeaders> };
  getPaymentsConfig: { fields: GetPaymentsConfigFields; answer: JsonAnswer<GetPaymentsConfigData, 200, GetPaymentsConfigHeaders> };
  getPaymentsCheckout: { fields: GetPaymentsCheckoutFields; answer: JsonAnswer<GetPaymentsCheckoutData, 200, GetPaymentsCheckoutHeaders> };
  postPaymentsCheckout: { fields: PostPaymentsCheckoutFields; answer: JsonAnswer<PostPaymentsCheckoutData, 200, PostPaymentsCheckoutHeaders> };
  postPaymentsLocalPay: { fields: PostPaymentsLocalPayFields; answer: JsonAnswer<PostPaymentsLocalPayData, 200, PostPaymentsLocalPayHeaders> };
  getCheckout: { fields: GetCheckoutFields; answer: JsonAnswer<GetCheckoutData, 200, GetCheckoutHeaders> };
  postPaymentsWebhookProvider: { fields: PostPaymentsWebhookProviderFields; answer: JsonAnswer<PostPaymentsWebhookProviderData, 200, PostPaymentsWebhookProviderHeaders> };
  getModelsName: { fields: GetModelsNameFields; answer: FileAnswer<GetModelsNameHeaders> };
  getContactInfo: { fields: GetContactInfoFields; answer: JsonAnswer<GetContactInfoData, 200, GetContactInfoHeaders> };
  postContactSend: { fields: PostContactSendFields; answer: JsonAnswer<PostContactSendData, 200, PostContactSendHeaders> };
  postApiTokenGet: { fields: PostApiTokenGetFields; answer: JsonAnswer<PostApiTokenGetData, 200, PostApiTokenGetHeaders> };
  postApiTokenReset: { fields: PostApiTokenResetFields; answer: JsonAnswer<PostApiTokenResetData, 200, PostApiTokenResetHeaders> };
  postApiTokenWebhooks: { fields: PostApiTokenWebhooksFields; answer: JsonAnswer<PostApiTokenWebhooksData, 200, PostApiTokenWebhooksHeaders> };
}
